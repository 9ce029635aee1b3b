// `pds api <path>` against the emulator: paths, {project}, -X, -f, --input, -H, -i, --paginate,
// errors and retries.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerOf, sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

const P = DEMO_PROJECT;
const emulator = sharedEmulator({ flavor: 'current' });
const sent = () => emulator.requests.map((r) => [r.method, r.path, r.query]);

/** The first project the emulator lists (read before the tests). */
let firstProject: string;
beforeAll(async () => {
  firstProject = (await answerOf<{ id: string }[]>(emulator, '/v1/projects'))[0]?.id as string;
  expect(firstProject).toMatch(/^[0-9a-f-]{36}$/);
});
const pdf = readFileSync(new URL('../fixtures/sample.pdf', import.meta.url)).toString('base64');

describe('pds api', () => {
  it('prints the answer as it came when piped (ended by one newline), indented on a terminal', async () => {
    const piped = await runCli(emulator, ['api', 'projects']);
    expect(piped.code).toBe(0);
    const start = `{"data":[{"id":"${firstProject}"`;
    expect(piped.stdout.slice(0, start.length)).toBe(start);
    expect(piped.stdout.indexOf('\n')).toBe(piped.stdout.length - 1);
    const tty = await runCli(emulator, ['api', '/v1/projects'], { tty: true });
    expect(tty.stdout).toBe(`${JSON.stringify(JSON.parse(piped.stdout), null, 2)}\n`);
    expect(sent()).toEqual([
      ['GET', '/v1/projects', {}],
      ['GET', '/v1/projects', {}],
    ]);
  });

  it('renders the answer in --format csv, ndjson and yaml, --paginate streamed', async () => {
    const csv = await runCli(emulator, [
      'api',
      'artists',
      '-f',
      'projectId={project}',
      '-f',
      'perPage=2',
      '--paginate',
      '--format',
      'csv',
    ]);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toMatch(/^id,name,/);
    expect(lines.length - 2).toBe(
      JSON.parse(
        (await runCli(emulator, ['api', 'artists', '-f', 'projectId={project}', '--paginate', '--jq', 'length']))
          .stdout,
      ),
    );
    const ndjson = await runCli(emulator, [
      'api',
      'artists',
      '-f',
      'projectId={project}',
      '-f',
      'perPage=3',
      '--paginate',
      '--format',
      'ndjson',
    ]);
    expect(
      ndjson.stdout
        .split('\n')
        .filter(Boolean)
        .every((line) => typeof JSON.parse(line).id === 'number' || typeof JSON.parse(line).id === 'string'),
    ).toBe(true);
    const yaml = await runCli(emulator, ['api', 'projects', '--format', 'yaml', '--jq', '.data[0] | {id}']);
    expect(yaml).toEqual({ code: 0, stdout: `id: ${firstProject}\n`, stderr: '' });
  });

  it('replaces {project} in the path and the query; -f is the query of a GET', async () => {
    const result = await runCli(emulator, [
      'api',
      'contracts?projectId={project}',
      '-f',
      'perPage=1',
      '-f',
      'includes=dates',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).data).toHaveLength(1);
    await runCli(emulator, ['api', `projects/{project}`]);
    expect(sent()).toEqual([
      ['GET', '/v1/contracts', { projectId: P, perPage: '1', includes: 'dates' }],
      ['GET', `/v1/projects/${P}`, {}],
    ]);
  });

  it('-X POST sends -f as a JSON body, and -H adds headers', async () => {
    const result = await runCli(emulator, [
      'api',
      '-X',
      'post',
      'statements?projectId={project}',
      '-f',
      `file=${pdf}`,
      '-f',
      'fileName=q1.pdf',
      '-H',
      'X-Trace: abc',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).data).toMatchObject({ staging_done: false });
    const [request] = emulator.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/statements',
      upload: { fileName: 'q1.pdf', form: 'json' },
    });
    expect(request?.headers['x-trace']).toBe('abc');
    expect(request?.headers['content-type']).toBe('application/json');
  });

  it('--input sends a JSON body from a file or stdin; -f then goes to the query', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pds-api-'));
    const file = join(dir, 'body.json');
    writeFileSync(file, JSON.stringify({ file: pdf, fileName: 'from-file.pdf' }));
    expect(
      (await runCli(emulator, ['api', '-X', 'POST', 'statements', '--input', file, '-f', 'projectId={project}'])).code,
    ).toBe(0);
    const stdin = JSON.stringify({ file: pdf, fileName: 'from-stdin.pdf' });
    expect(
      (
        await runCli(emulator, ['api', '-X', 'POST', 'statements', '--input', '-', '-f', 'projectId={project}'], {
          stdin,
        })
      ).code,
    ).toBe(0);
    expect(emulator.requests.map((r) => [r.query, r.upload?.fileName])).toEqual([
      [{ projectId: P }, 'from-file.pdf'],
      [{ projectId: P }, 'from-stdin.pdf'],
    ]);
  });

  it('-i prints the status line and the headers first', async () => {
    const result = await runCli(emulator, ['api', '-i', 'projects']);
    const [head = '', body] = result.stdout.split('\n\n');
    expect(head.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(body ?? '').data).toHaveLength(2);
  });

  it('-i shows a header with a C1 control made safe on a terminal, as sent when piped', async () => {
    // A server on loopback: the emulator sends only well-behaved headers. Latin-1 0x9b is CSI.
    const server = createServer((_req, res) => {
      res.setHeader('x-evil', '\u009b2Jgone');
      res.setHeader('content-type', 'application/json');
      res.end('{"data":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const terminal = await runCli(url, ['api', '-i', 'projects'], { tty: true });
      expect(terminal.stdout).toContain('\\x9b2Jgone\n');
      expect(terminal.stdout).not.toContain('\u009b');
      const piped = await runCli(url, ['api', '-i', 'projects']);
      expect(piped.stdout).toContain('\u009b2Jgone\n');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('--paginate follows a plain-array list and prints one array of every record', async () => {
    const result = await runCli(emulator, [
      'api',
      'artists',
      '-f',
      'projectId={project}',
      '-f',
      'perPage=50',
      '--paginate',
    ]);
    expect(result.code).toBe(0);
    const all = JSON.parse(result.stdout) as { id: string }[];
    // The seed's 100 artists: two full pages, then an empty one ends the walk.
    expect(all).toHaveLength(100);
    expect(new Set(all.map((a) => a.id)).size).toBe(100);
    expect(emulator.requests.map((r) => r.query.page)).toEqual(expect.arrayContaining(['1', '2', '3']));
  });

  it('--paginate follows the paged envelope too, and --jq sees the whole array', async () => {
    // An emulator of its own: an upload of another test here becomes a statement when its
    // processing ends, which would change the total between the two calls.
    const own = await testEmulator({ flavor: 'current' });
    try {
      const total = (
        await runCli(own, ['api', 'statements?projectId={project}&perPage=1', '--jq', '.data.total_count'])
      ).stdout;
      expect(Number(total)).toBeGreaterThan(100);
      own.requests.length = 0;
      const result = await runCli(own, [
        'api',
        'statements',
        '-f',
        'projectId={project}',
        '--paginate',
        '--jq',
        '[length, (map(.id) | unique | length)] | @csv',
      ]);
      expect(result).toEqual({ code: 0, stdout: `${total.trim()},${total.trim()}\n`, stderr: '' });
      expect(own.requests.map((r) => [r.method, r.path, r.query])).toEqual([
        ['GET', '/v1/statements', { projectId: P, page: '1', perPage: '100' }],
        ['GET', '/v1/statements', { projectId: P, page: '2', perPage: '100' }],
      ]);
    } finally {
      await own.close();
    }
  });

  it('--paginate pages from the page and perPage written in the path', async () => {
    const every = JSON.parse((await runCli(emulator, ['api', 'artists?projectId={project}&perPage=100'])).stdout)
      .data as { id: string }[];
    emulator.requests.length = 0;
    const result = await runCli(emulator, [
      'api',
      'artists?projectId={project}&perPage=40&page=2',
      '--paginate',
      '--jq',
      'map(.id) | [length, first, last] | @csv',
    ]);
    expect(result).toEqual({ code: 0, stdout: `60,"${every[40]?.id}","${every[99]?.id}"\n`, stderr: '' });
    // Page 3 is short (20 of 40): the last. (Pages after it may have been asked for ahead, and cancelled.)
    const asked = sent().filter(([, , query]) => Number((query as { page: string }).page) <= 3);
    expect(asked).toEqual(
      [2, 3].map((page) => ['GET', '/v1/artists', { projectId: P, page: String(page), perPage: '40' }]),
    );
  });

  it('--paginate ends like --all: a list that ignores page is exit 1 naming its pagination', async () => {
    // /v1/projects is one plain array whatever the page: page 2 repeats page 1.
    const projects = JSON.parse((await runCli(emulator, ['api', 'projects'])).stdout).data as { id: string }[];
    emulator.requests.length = 0;
    const result = await runCli(emulator, ['api', 'projects', '-f', 'perPage=1', '--paginate']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: the service's pagination repeats itself: page 2 holds only records already listed, so --paginate stopped after ${projects.length} records\n` +
        '  the service seems to ignore the page parameter; list page by page with -f page=N, or report it to the service\n',
    );
    expect(result.stdout.match(/"id"/g)).toHaveLength(projects.length);
    // Page 2 showed the repeat; pages fetched ahead of it are cancelled.
    expect(sent().slice(0, 2)).toEqual([
      ['GET', '/v1/projects', { perPage: '1', page: '1' }],
      ['GET', '/v1/projects', { perPage: '1', page: '2' }],
    ]);
  });

  it('--paginate stops at a short page and at total_count, as --all does', async () => {
    const contracts = emulator.state.data[P]?.contracts.length ?? 0;
    const statements = emulator.state.data[P]?.statements.length ?? 0;
    // Contracts come as a plain array: 10 a page, the last page is short.
    const short = await runCli(emulator, [
      'api',
      'contracts',
      '-f',
      'projectId={project}',
      '-f',
      'perPage=10',
      '--paginate',
      '--jq',
      'length',
    ]);
    // Statements come in the paged envelope: the last page is full, and total_count says it is the last.
    const perPage = [50, 41, 40, 30, 25, 20, 10].find((size) => statements % size === 0) as number;
    const total = await runCli(emulator, [
      'api',
      'statements',
      '-f',
      'projectId={project}',
      '-f',
      `perPage=${perPage}`,
      '--paginate',
      '--jq',
      'length',
    ]);
    expect([short.code, short.stdout, total.code, total.stdout]).toEqual([0, `${contracts}\n`, 0, `${statements}\n`]);
    // Pages past the total are never asked for (a plain array has none: pages fetched ahead may be).
    const statementPages = Array.from({ length: statements / perPage }, (_, i) => String(i + 1));
    expect(emulator.requests.filter((r) => r.path === '/v1/statements').map((r) => r.query.page)).toEqual(
      statementPages,
    );
  });

  it('--paginate of something that is not a list is exit 2', async () => {
    const result = await runCli(emulator, ['api', 'projects/{project}', '--paginate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --paginate: \/v1\/projects\/\S+ did not answer with a list\n/);
  });

  it('errors and exit codes are those of every command', async () => {
    expect(await runCli(emulator, ['api', 'contracts/nope?projectId={project}'])).toMatchObject({
      code: 5,
      stdout: '',
    });
    expect(await runCli(emulator, ['api', 'contracts'])).toMatchObject({ code: 2, stdout: '' });
    expect(await runCli(emulator, ['api', 'projects'], { token: 'wrong' })).toMatchObject({ code: 3, stdout: '' });
    expect(await runCli(emulator, ['api', 'projects'], { token: null })).toMatchObject({ code: 3, stdout: '' });
  });

  it('bad input is exit 2 and sends nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['api', 'https://elsewhere.example/v1/projects'], /^error: give a path such as \/v1\/projects, not a URL/],
      [
        ['api', '-X', 'HEAD', 'projects'],
        /^error: invalid --method 'HEAD'\n {2}the service's methods: GET, POST, PUT, PATCH, DELETE\n$/,
      ],
      [['api', 'projects', '-f', 'novalue'], /^error: invalid -f 'novalue': expected key=value\n$/],
      [['api', 'artists?perPage=2', '-f', 'perPage=3'], /^error: perPage is given twice: in the path and with -f\n$/],
      [
        ['api', 'projects', '-H', 'no colon'],
        /^error: invalid -H 'no colon': expected 'Name: value', in visible ASCII\n$/,
      ],
      [
        ['api', 'projects', '-H', 'Authorization: Basic abc'],
        /^error: -H cannot set Authorization: the token is the profile's \(pds auth login, or PDS_TOKEN\)\n$/,
      ],
      [
        ['api', 'projects', '--input', '-'],
        /^error: --input sends a body: use it with -X POST, PUT, PATCH or DELETE\n$/,
      ],
      [['api', '-X', 'POST', 'statements', '--input', '-'], /^error: --input \(stdin\) is not JSON: /],
      [
        ['api', '-X', 'POST', 'statements', '--input', '/nonexistent.json'],
        /^error: cannot read --input \/nonexistent.json: ENOENT\n$/,
      ],
      [['api', '-X', 'POST', 'statements', '--paginate'], /^error: --paginate follows the pages of a GET list\n$/],
      [['api', 'projects/{project}'], /^error: no project selected/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(emulator, args, {
        stdin: 'not json',
        ...(args.includes('{project}') || args.includes('projects/{project}') ? { project: null } : {}),
      });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
    expect(emulator.requests).toEqual([]);
  });

  it('retries a GET, never a POST', async () => {
    const flaky = await testEmulator({ flavor: 'current', failRate: 1 });
    try {
      expect((await runCli(flaky, ['api', 'projects'], { maxRetries: 2 })).code).toBe(1);
      expect(flaky.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
      flaky.requests.length = 0;
      expect(
        (await runCli(flaky, ['api', '-X', 'POST', `projects/${P}/sandbox/connect`], { maxRetries: 2 })).code,
      ).toBe(1);
      expect(flaky.requests.map((r) => r.method)).toEqual(['POST']);
    } finally {
      await flaky.close();
    }
  });
});
