// `pds contracts download` and `pds statements download`, in-process against the emulator and its
// storage host over loopback.
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { findDocumentFile } from '../../src/emulator/storage.js';
import { runCli } from '../helpers/cli.js';
import { answerOf, sharedEmulator, testEmulator } from '../helpers/emulator.js';

const emulator = sharedEmulator({ flavor: 'current' });
const project = () => emulator.state.data[DEMO_PROJECT_ID] as NonNullable<(typeof emulator.state.data)[string]>;
const contractId = (index = 0) => project().contracts[index]?.id as string;
const statementId = (index = 0) => String(project().statements[index]?.id);
const fileNameOf = (kind: 'contract' | 'statement', id: string) =>
  findDocumentFile(emulator.state, kind, DEMO_PROJECT_ID, id)?.fileName as string;
const freshDir = () => mkdtempSync(join(tmpdir(), 'pds-download-'));
const downloadCalls = () => emulator.requests.filter((r) => r.path.endsWith('/download'));

// The project's name as the emulator answers it (a 404 names the project by it).
let projectName: string;
beforeAll(async () => {
  projectName = (await answerOf<{ name: string }>(emulator, `/v1/projects/${DEMO_PROJECT_ID}`)).name;
  expect(projectName).not.toBe('');
});

afterEach(() => {
  emulator.storage.requests.length = 0;
  Object.assign(emulator.storage.faults, { expire: 0, cutAfterBytes: undefined, stallAfterBytes: undefined });
});

describe('one download', () => {
  it('to a path: the whole PDF, nothing else in the directory, no Authorization header at the storage host', async () => {
    const dir = freshDir();
    const target = join(dir, 'contract.pdf');
    const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', target]);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    const bytes = readFileSync(target);
    expect(result.stderr).toBe(`contract ${contractId()}: saved ${target} (${bytes.length} B)\n`);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(readdirSync(dir)).toEqual(['contract.pdf']);
    expect(downloadCalls()).toHaveLength(1);
    expect(downloadCalls()[0]?.query).toEqual({ projectId: DEMO_PROJECT_ID });
    expect(emulator.storage.requests).toHaveLength(1);
    expect(emulator.storage.requests[0]).toMatchObject({ authorization: false, status: 200 });
  });

  it("to a directory: named after the service's fileName; -q prints the path", async () => {
    const dir = freshDir();
    const result = await runCli(emulator, ['statements', 'download', statementId(), '-o', `${dir}/`, '-q']);
    const expected = join(dir, fileNameOf('statement', statementId()));
    expect(result).toEqual({ code: 0, stdout: `${expected}\n`, stderr: '' });
    expect(readFileSync(expected).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('to a directory that does not exist yet: it is created', async () => {
    const dir = join(freshDir(), 'new', 'sub');
    const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', `${dir}/`, '-q']);
    expect(result).toEqual({ code: 0, stdout: `${join(dir, fileNameOf('contract', contractId()))}\n`, stderr: '' });
  });

  it('-o - refuses a terminal for stdout', async () => {
    const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', '-'], { tty: true });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: refusing to write a binary file to the terminal: redirect stdout to a file or a pipe to use -o -\n',
    });
    expect(emulator.requests).toEqual([]);
  });

  it('to stdout with -o -: the bytes and nothing else', async () => {
    const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', '-']);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith('%PDF-1.4\n')).toBe(true);
    expect(result.stdout.endsWith('%%EOF\n')).toBe(true);
    expect(result.stderr).toBe('');
  });

  it('--verbose traces the storage request without its signature', async () => {
    const result = await runCli(emulator, [
      'contracts',
      'download',
      contractId(),
      '-o',
      join(freshDir(), 'c.pdf'),
      '--verbose',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `> GET ${emulator.storage.origin}/files/contract/${DEMO_PROJECT_ID}/${contractId()} (signed URL, sent without credentials)\n< 200 OK\n`,
    );
    expect(result.stderr).not.toContain('signature=');
  });

  it('--json prints id, file and bytes', async () => {
    const dir = freshDir();
    const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', join(dir, 'c.pdf'), '--json']);
    expect(result.code).toBe(0);
    const size = statSync(join(dir, 'c.pdf')).size;
    expect(JSON.parse(result.stdout)).toEqual([
      { id: contractId(), file: join(dir, 'c.pdf'), bytes: size, up_to_date: false },
    ]);
  });
});

describe('several downloads', () => {
  it('--all downloads every record; a rerun skips the files that are up to date; --force fetches them again', async () => {
    const dir = freshDir();
    const contracts = project().contracts;
    const first = await runCli(emulator, ['contracts', 'download', '--all', '-o', dir, '--concurrency', '3']);
    expect(first.code).toBe(0);
    expect(first.stderr.split('\n').at(-2)).toBe(`${contracts.length} downloaded`);
    expect(readdirSync(dir).sort()).toEqual(contracts.map((c) => fileNameOf('contract', c.id)).sort());

    emulator.storage.requests.length = 0;
    const oneName = fileNameOf('contract', contracts[0]?.id as string);
    writeFileSync(join(dir, oneName), 'old');
    const again = await runCli(emulator, ['contracts', 'download', '--all', '-o', dir, '--json']);
    expect(again.code).toBe(1);
    const results = JSON.parse(again.stdout) as { id: string; up_to_date?: boolean; error?: { message: string } }[];
    expect(results.filter((r) => r.up_to_date)).toHaveLength(contracts.length - 1);
    expect(results[0]?.error?.message).toMatch(/^.+ exists \(3 B; the download is \d+ B\)$/);
    expect(results[0]?.error?.message.startsWith(join(dir, oneName))).toBe(true);
    expect(readFileSync(join(dir, oneName), 'utf8')).toBe('old');
    expect(again.stderr).toContain(`${contracts.length - 1} up to date, 1 failed`);

    const forced = await runCli(emulator, ['contracts', 'download', contracts[0]?.id as string, '-o', dir, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, oneName)).subarray(0, 5).toString()).toBe('%PDF-');
    expect(readdirSync(dir)).toHaveLength(contracts.length);
  });

  it('exit 1 when one of several fails; the others are saved, and the failure is said', async () => {
    const dir = freshDir();
    const result = await runCli(emulator, ['statements', 'download', statementId(0), '99999', '-o', `${dir}/`]);
    expect(result.code).toBe(1);
    expect(readdirSync(dir)).toEqual([fileNameOf('statement', statementId(0))]);
    expect(result.stderr).toContain(
      `error: statement 99999: not found in project ${projectName} (${DEMO_PROJECT_ID})\n`,
    );
    expect(result.stderr).toMatch(/1 downloaded, 1 failed\n$/);
  });
});

describe('refusals', () => {
  it('an existing file with another size is left alone: exit 2', async () => {
    const dir = freshDir();
    const target = join(dir, 'kept.pdf');
    writeFileSync(target, 'precious');
    const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', target]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} exists \\(8 B; the download is \\d+ B\\)\n  --force replaces it\n$`,
      ),
    );
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(readdirSync(dir)).toEqual(['kept.pdf']);
  });

  it('without a token: exit 3, nothing sent', async () => {
    const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', `${freshDir()}/`], {
      token: null,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: not logged in\n/);
    expect(emulator.requests).toEqual([]);
  });

  it('a 404 id: exit 5, nothing written', async () => {
    const dir = freshDir();
    const result = await runCli(emulator, ['contracts', 'download', '424242', '-o', `${dir}/`]);
    expect(result).toEqual({
      code: 5,
      stdout: '',
      stderr: `error: contract 424242 not found in project ${projectName} (${DEMO_PROJECT_ID})\n`,
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    [['contracts', 'download'], 'error: give at least one contract id, or --all\n'],
    [['contracts', 'download', '1', '--all'], 'error: give ids or --all, not both\n'],
    [['statements', 'download', 'abc'], "error: invalid statement id 'abc': statement ids are whole numbers\n"],
    [['contracts', 'download', '1', '2', '-o', '-'], 'error: -o - writes one file to stdout: give exactly one id\n'],
    [
      ['contracts', 'download', '1', '2', '-o', '/tmp/pds-no-such-file.pdf'],
      'error: -o /tmp/pds-no-such-file.pdf names one file: give a directory (ending with /) for several downloads\n',
    ],
    [
      ['contracts', 'download', '1', '-o', '/tmp/pds-no-such-dir/x.pdf'],
      'error: cannot write /tmp/pds-no-such-dir/x.pdf: the directory /tmp/pds-no-such-dir does not exist\n',
    ],
    [
      ['contracts', 'download', '1', '--concurrency', '0'],
      "error: invalid --concurrency '0': expected a whole number from 1 to 8\n",
    ],
    [
      ['contracts', 'download', '1', '--concurrency', '9'],
      "error: invalid --concurrency '9': expected a whole number from 1 to 8\n",
    ],
    [
      ['emulator', 'start', '--url-ttl', '-1'],
      "error: invalid --url-ttl '-1': expected seconds ≥ 0 (90, 90s, 5m, 1h or 1m30s)\n",
    ],
  ])('%j is a usage error, nothing sent', async (args, stderr) => {
    const result = await runCli(emulator, args);
    expect(result).toEqual({ code: 2, stdout: '', stderr });
    expect(emulator.requests).toEqual([]);
  });

  it('-o through a file (afile/ or afile/sub/) is a usage error before anything is sent', async () => {
    const file = join(freshDir(), 'afile');
    writeFileSync(file, 'x');
    for (const output of [`${file}/`, `${file}/sub/`]) {
      const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', output]);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: cannot write to ${output}: ${file} is a file, not a directory\n`,
      });
    }
    expect(emulator.requests).toEqual([]);
  });

  it('a directory where no file can be made: one clear error naming the file, and storage is never asked', async () => {
    emulator.storage.requests.length = 0;
    const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', '/proc/']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: cannot (write \/proc\/\S+\.pdf: E[A-Z]+ \([a-z ]+\)|write to \/proc\/: no permission to write in \/proc)\n$/,
    );
    expect(result.stderr).not.toContain('.part');
    expect(emulator.storage.requests).toEqual([]);
  });

  it('a service without the download endpoint: "this service does not offer downloads", exit 5', async () => {
    const without = await testEmulator({ flavor: 'current', downloads: false });
    try {
      const dir = freshDir();
      const result = await runCli(without, ['contracts', 'download', '--all', '-o', dir]);
      expect(result.code).toBe(5);
      expect(result.stderr).toBe(
        `error: this service does not offer downloads\n  ${without.url} has no GET /v1/contracts/{id}/download endpoint\n`,
      );
      expect(readdirSync(dir)).toEqual([]);
      // It stopped after the first answers instead of asking for every contract.
      expect(without.requests.filter((r) => r.path.endsWith('/download')).length).toBeLessThanOrEqual(4);
    } finally {
      await without.close();
    }
  });
});

describe('the storage host misbehaves', () => {
  it('a body cut short: exit 1, no file at the target and no temporary file', async () => {
    const dir = freshDir();
    emulator.storage.faults.cutAfterBytes = 100;
    const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', join(dir, 'x.pdf')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: the download was cut short: \d+ of \d+ bytes arrived\n$/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an expired URL is asked for again once, then the file comes', async () => {
    const dir = freshDir();
    emulator.storage.faults.expire = 1;
    const result = await runCli(emulator, ['statements', 'download', statementId(), '-o', join(dir, 's.pdf')]);
    expect(result.code).toBe(0);
    expect(downloadCalls()).toHaveLength(2);
    expect(emulator.storage.requests.map((r) => r.status)).toEqual([403, 200]);
    expect(emulator.storage.requests.every((r) => !r.authorization)).toBe(true);
    expect(readdirSync(dir)).toEqual(['s.pdf']);
  });

  it('a URL refused twice: exit 1 after one refetch', async () => {
    const dir = freshDir();
    emulator.storage.faults.expire = 5;
    const result = await runCli(emulator, ['statements', 'download', statementId(), '-o', join(dir, 's.pdf')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: the storage host ${emulator.storage.origin} answered HTTP 403: the download URL expired or was refused\n`,
    );
    expect(downloadCalls()).toHaveLength(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a file that is not a PDF is not kept', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>sign in</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const original = emulator.storage.sign;
    emulator.storage.sign = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/file.pdf`;
    try {
      const dir = freshDir();
      const result = await runCli(emulator, ['contracts', 'download', contractId(), '-o', join(dir, 'x.pdf')]);
      expect(result).toMatchObject({
        code: 1,
        stderr: 'error: the storage host sent a file that is not a PDF (it does not start with %PDF-)\n',
      });
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      emulator.storage.sign = original;
      server.close();
    }
  });
});

describe('unsafe file names from the service', () => {
  const cases: [string, string][] = [
    ['../x.pdf', '_x.pdf'],
    ['a/b.pdf', 'a_b.pdf'],
    ['evil\u001b[31mred\u0007.pdf', 'evil[31mred.pdf'],
    ['..', 'statement-ID.pdf'],
    ['C:\\Windows\\x', 'C__Windows_x.pdf'],
  ];
  it.each(cases)('%j is saved as %j inside the directory', async (unsafe, expected) => {
    const statement = project().statements[5];
    if (!statement) throw new Error('no statement');
    const original = statement.file_name;
    statement.file_name = unsafe;
    try {
      const dir = freshDir();
      const result = await runCli(emulator, ['statements', 'download', String(statement.id), '-o', `${dir}/`, '-q']);
      const name = expected.replace('ID', String(statement.id));
      expect(result).toEqual({ code: 0, stdout: `${join(dir, name)}\n`, stderr: '' });
      expect(readdirSync(dir)).toEqual([name]);
      expect(existsSync(join(dir, '..', 'x.pdf'))).toBe(false);
    } finally {
      statement.file_name = original;
    }
  });

  it('two records with the same name get a suffix, in the order of the ids', async () => {
    const [a, b] = project().statements;
    if (!a || !b) throw new Error('no statements');
    const names = [a.file_name, b.file_name];
    a.file_name = 'same.pdf';
    b.file_name = 'SAME.pdf';
    try {
      const dir = freshDir();
      const result = await runCli(emulator, [
        'statements',
        'download',
        String(a.id),
        String(b.id),
        '-o',
        `${dir}/`,
        '-q',
      ]);
      expect(result).toEqual({
        code: 0,
        stdout: `${join(dir, 'same.pdf')}\n${join(dir, 'SAME (2).pdf')}\n`,
        stderr: '',
      });
    } finally {
      [a.file_name, b.file_name] = names as [string, string];
    }
  });
});

describe('a stalled download', () => {
  it('ends after --timeout without a byte: exit 1, nothing left', async () => {
    const dir = freshDir();
    emulator.storage.faults.stallAfterBytes = 10;
    const result = await runCli(emulator, [
      'contracts',
      'download',
      contractId(),
      '-o',
      join(dir, 'x.pdf'),
      '--timeout',
      '0.3',
    ]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: the download stalled: less than 1 KiB arrived in 0.3 s\n  raise the limit with --timeout <seconds>\n',
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});
