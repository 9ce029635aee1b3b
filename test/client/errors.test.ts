// Every error class of DESIGN.md's exit codes that a read can meet, as the user sees it.
import { beforeAll, describe, expect, it } from 'vitest';
import { SECOND_PROJECT_ID as SECOND_PROJECT } from '../../src/emulator/seed.js';
import { answerOf, sharedEmulator, testEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';
import { startRogueServer } from '../helpers/rogue-server.js';

const emulator = sharedEmulator({ flavor: 'current' });

// What the emulator answers, read before the tests: the project's name (a 404 names it) and the
// first two artists a page of two lists.
let projectName: string;
let firstArtists: string[];
beforeAll(async () => {
  projectName = (await answerOf<{ name: string }>(emulator, `/v1/projects/${DEMO_PROJECT}`)).name;
  const artists = await answerOf<{ id: string }[]>(emulator, `/v1/artists?projectId=${DEMO_PROJECT}&page=1&perPage=2`);
  firstArtists = artists.map((artist) => artist.id);
  expect(projectName).not.toBe('');
  expect(firstArtists).toHaveLength(2);
});

describe('401: not authenticated (exit 3)', () => {
  it('a token the service rejects', async () => {
    expect(await runCli(emulator, ['artists', 'ls'], { token: 'expired-token' })).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: invalid or expired token\n  the token in use is PDS_TOKEN\n  set PDS_TOKEN to a valid API token, or unset it and sign in: `pds auth login`\n',
    });
    // A 401 is not retried.
    expect(emulator.requests.map((r) => r.status)).toEqual([401]);
  });

  it('no token at all: no request is sent', async () => {
    expect(await runCli(emulator, ['artists', 'ls'], { token: null })).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: not logged in\n' +
        '  sign in with `pds auth login` (it asks how on a terminal; --web: with a browser), pipe a token to `pds auth login --with-token`, or set PDS_TOKEN\n',
    });
    expect(emulator.requests).toEqual([]);
  });
});

describe('403: forbidden (exit 4)', () => {
  it('a project token on another project', async () => {
    expect(await runCli(emulator, ['artists', 'ls'], { token: 'demo-project-token', project: SECOND_PROJECT })).toEqual(
      {
        code: 4,
        stdout: '',
        stderr: 'error: token does not have access to this project\n',
      },
    );
    expect(emulator.requests.map((r) => [r.path, r.query.projectId, r.status])).toEqual([
      ['/v1/artists', SECOND_PROJECT, 403],
    ]);
  });
});

describe('404: not found (exit 5)', () => {
  it('an unknown artist', async () => {
    expect(await runCli(emulator, ['artists', 'get', 'art_99999'])).toEqual({
      code: 5,
      stdout: '',
      stderr: `error: artist art_99999 not found in project ${projectName} (${DEMO_PROJECT})\n`,
    });
  });

  it('an unknown statement, contract and entity', async () => {
    for (const [resource, id] of [
      ['statements', '1'],
      ['contracts', '1'],
      ['entities', '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const result = await runCli(emulator, [resource, 'get', id]);
      expect(result.code).toBe(5);
      expect(result.stderr).toBe(
        `error: ${resource === 'entities' ? 'entity' : resource.slice(0, -1)} ${id} not found in project ${projectName} (${DEMO_PROJECT})\n`,
      );
    }
  });
});

describe('what was not found, and where', () => {
  it('names the id and the project by its name', async () => {
    expect(await runCli(emulator, ['contracts', 'get', '999999'])).toEqual({
      code: 5,
      stdout: '',
      stderr: `error: contract 999999 not found in project ${projectName} (${DEMO_PROJECT})\n`,
    });
  });
});

describe("the service's request id", () => {
  it('is shown under the error, and in the JSON error object (--json, --format json, PDS_FORMAT=ndjson)', async () => {
    const rogue = await startRogueServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': 'req-7f3a' });
      res.end(JSON.stringify({ error: { message: 'boom' } }));
    });
    try {
      const text = await runCli(rogue.url, ['projects', 'ls'], { maxRetries: 0 });
      expect(text).toEqual({ code: 1, stdout: '', stderr: 'error: boom\n  request id: req-7f3a\n' });
      const object = '{"error":{"status":500,"message":"boom","request_id":"req-7f3a"}}\n';
      for (const [args, env] of [
        [['projects', 'ls', '--json'], {}],
        [['projects', 'ls', '--format=json'], {}],
        [['projects', 'ls'], { PDS_FORMAT: 'ndjson' }],
      ] as const) {
        expect(await runCli(rogue.url, [...args], { maxRetries: 0, env })).toEqual({
          code: 1,
          stdout: '',
          stderr: object,
        });
      }
      // `request-id` is the other name services use.
      const other = await startRogueServer((_req, res) => {
        res.writeHead(404, { 'content-type': 'application/json', 'request-id': 'abc 123' });
        res.end(JSON.stringify({ error: { message: 'no such thing' } }));
      });
      expect((await runCli(other.url, ['api', 'things'], { maxRetries: 0 })).stderr).toBe(
        'error: no such thing\n  request id: abc 123\n',
      );
      await other.close();
    } finally {
      await rogue.close();
    }
  });
});

describe('400: invalid input the service caught (exit 2)', () => {
  // Local checks stop nearly every bad request before it is sent. One honest way through: a
  // statement id of 16 digits is a whole number to pds, but the service takes at most 15.
  it('prints the field-level details the service sent', async () => {
    expect(await runCli(emulator, ['statements', 'get', '1234567890123456'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: GET /v1/statements/1234567890123456 failed with HTTP 400: statement_id: statement_id must be an integer\n',
    });
    expect(emulator.requests.map((r) => r.status)).toEqual([400]);
  });
});

describe('--json errors', () => {
  it('are one JSON object on stderr, with the status', async () => {
    const cases: [string[], Record<string, unknown>, number][] = [
      [
        ['artists', 'get', 'art_99999', '--json'],
        { status: 404, message: `artist art_99999 not found in project ${projectName} (${DEMO_PROJECT})` },
        5,
      ],
      [['--json', 'artists', 'ls'], { status: 403, message: 'token does not have access to this project' }, 4],
      [
        ['statements', 'get', '1234567890123456', '--json'],
        {
          status: 400,
          message:
            'GET /v1/statements/1234567890123456 failed with HTTP 400: statement_id: statement_id must be an integer',
        },
        2,
      ],
    ];
    for (const [args, error, code] of cases) {
      const result = await runCli(
        emulator,
        args,
        args.includes('ls') ? { token: 'demo-project-token', project: SECOND_PROJECT } : {},
      );
      expect(result.code).toBe(code);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`${JSON.stringify({ error })}\n`);
    }
  });

  it('carry the details and a null status for local errors', async () => {
    const result = await runCli(emulator, ['artists', 'ls', '--json'], { project: null });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        status: null,
        message: 'no project selected',
        details: ['pass -p <project-id>, set PDS_PROJECT, or run `pds use <project>`'],
      },
    });
    const auth = await runCli(emulator, ['artists', 'ls', '--json'], { token: 'nope' });
    expect(JSON.parse(auth.stderr)).toEqual({
      error: {
        status: 401,
        message: 'invalid or expired token',
        details: [
          'the token in use is PDS_TOKEN',
          'set PDS_TOKEN to a valid API token, or unset it and sign in: `pds auth login`',
        ],
      },
    });
  });

  it('cover usage errors from the command line too', async () => {
    const result = await runCli(emulator, ['artists', 'ls', '--bogus', '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        status: null,
        message: "unknown option '--bogus'",
        details: ['see `pds --help`, or `pds <command> --help`'],
      },
    });
  });
});

describe('usage errors (exit 2)', () => {
  it('an unknown command or option', async () => {
    expect(await runCli(emulator, ['artist', 'ls'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: unknown command 'artist'\n  (Did you mean artists?)\n  see `pds --help`, or `pds <command> --help`\n",
    });
    expect((await runCli(emulator, ['artists', 'ls', '--bogus'])).code).toBe(2);
    expect(emulator.requests).toEqual([]);
  });

  it('a bad --timeout or --api-url', async () => {
    expect(await runCli(emulator, ['artists', 'ls', '--timeout', '0'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: invalid --timeout '0': expected seconds from 0.1 to 3600 (90, 90s, 5m, 1h or 1m30s)\n",
    });
    expect(await runCli(emulator, ['artists', 'ls', '--api-url', 'localhost:4010'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: invalid API URL 'localhost:4010': only http and https are supported\n",
    });
    expect(emulator.requests).toEqual([]);
  });

  it('help and version exit 0', async () => {
    const help = await runCli(emulator, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: pds');
    const version = await runCli(emulator, ['--version']);
    expect(version).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) as unknown as string,
      stderr: '',
    });
  });
});

describe('global options', () => {
  it('work before and after the verb', async () => {
    const after = await runCli(emulator, ['artists', 'ls', '--per-page', '3', '--json']);
    const before = await runCli(emulator, ['--json', 'artists', 'ls', '--per-page', '3']);
    const between = await runCli(emulator, ['artists', '--json', 'ls', '--per-page', '3']);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toHaveLength(3);
    expect(before).toEqual(after);
    expect(between).toEqual(after);

    const quietBefore = await runCli(emulator, ['-q', '-p', SECOND_PROJECT, 'artists', 'ls', '--per-page', '2']);
    const quietAfter = await runCli(emulator, ['artists', 'ls', '--per-page', '2', '-p', SECOND_PROJECT, '-q']);
    expect(quietBefore).toEqual(quietAfter);
    expect(quietBefore.stdout.trim().split('\n')).toHaveLength(2);
    expect(emulator.requests.slice(-2).map((r) => r.query.projectId)).toEqual([SECOND_PROJECT, SECOND_PROJECT]);

    const url = await runCli(null, ['--api-url', emulator.url, 'projects', 'ls', '-q']);
    expect(url.code).toBe(0);
    const timeout = await runCli(emulator, ['--timeout', '5', 'projects', 'ls', '-q']);
    expect(timeout).toEqual(url);
  });

  it('--no-color and NO_COLOR keep ANSI codes out of a TTY', async () => {
    const colored = await runCli(emulator, ['artists', 'ls', '--per-page', '1'], {
      tty: true,
      env: { FORCE_COLOR: undefined, NO_COLOR: undefined },
    });
    expect(colored.stdout).toContain('\u001b[');
    for (const options of [{ tty: true, env: { NO_COLOR: '1' } }, { tty: true }]) {
      const args = ['artists', 'ls', '--per-page', '1', ...(options.env ? [] : ['--no-color'])];
      const plain = await runCli(emulator, args, options);
      expect(plain.stdout + plain.stderr).not.toContain('\u001b[');
    }
  });
});

describe('--verbose', () => {
  it('prints one line per request and response on stderr, never the token', async () => {
    const result = await runCli(emulator, ['--verbose', 'artists', 'ls', '--per-page', '2', '-q']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${firstArtists.join('\n')}\n`);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`> GET ${emulator.url}/v1/artists?projectId=${DEMO_PROJECT}&page=1&perPage=2`);
    expect(lines[1]).toMatch(
      /^< 200 OK \(\d+ ms, rate limit: limit \d+, remaining \d+, reset at \d\d:\d\d:\d\d UTC, in \d+ s\)$/,
    );
    expect(result.stdout + result.stderr).not.toContain('demo-org-token');
  });

  it('shows failures without the token either', async () => {
    const result = await runCli(emulator, ['artists', 'get', 'art_99999', '--verbose'], { token: 'secret-value-123' });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('< 401 Unauthorized');
    expect(result.stdout + result.stderr).not.toContain('secret-value-123');
  });
});

describe('Ctrl-C', () => {
  it('exits 130 without a message or stack trace', async () => {
    const slow = await testEmulator({ flavor: 'current', latencyMs: 2000 });
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = Date.now();
      const result = await runCli(slow, ['artists', 'ls'], { signal: controller.signal });
      expect(result).toEqual({ code: 130, stdout: '', stderr: '' });
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await slow.close();
    }
  });
});
