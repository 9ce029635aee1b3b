// `npm run demo`: starts the emulator on a free port, tours the pds commands against it with a
// throw-away config directory, and stops it. Nothing outside this machine is contacted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdsSync, requireBuild, root, startEmulator } from './lib.js';

requireBuild();
const configDir = mkdtempSync(join(tmpdir(), 'pds-demo-'));
const emulator = await startEmulator(['--processing-ms', '300']);
const env = { PDS_API_URL: emulator.url, PDS_CONFIG_DIR: configDir, PDS_TOKEN: '', PDS_PROJECT: '' };
// Bold headings only for a person at a terminal: `npm run demo > demo.log` gets plain text.
const bold = process.stdout.isTTY === true && !process.env.NO_COLOR;
const heading = (text) => process.stdout.write(bold ? `\n\x1b[1m## ${text}\x1b[0m\n` : `\n## ${text}\n`);
let failures = 0;

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes ('\'' for a quote). */
const shellQuote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** Shows the command as it can be pasted, runs it with the terminal's stdio, and reports a surprising exit code. */
function step(args, { expect = 0, input } = {}) {
  const fed = input === undefined ? '' : `echo ${shellQuote(input.replace(/\n$/, ''))} | `;
  process.stdout.write(`\n$ ${fed}pds ${args.map(shellQuote).join(' ')}\n`);
  const result = pdsSync(args, env, { stdio: [input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'], input });
  if (result.status !== expect) {
    failures++;
    process.stdout.write(`!! exit ${result.status}, expected ${expect}\n`);
  }
  return result;
}

/** Runs a command for its JSON output, without showing it. */
function json(args) {
  const result = pdsSync([...args, '--json'], env);
  if (result.status !== 0) throw new Error(`pds ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

try {
  process.stdout.write(`pds demo against the local emulator at ${emulator.url}\n`);

  heading('Log in and pick a project');
  step(['auth', 'login', '--with-token'], { input: 'demo-org-token\n' });
  step(['auth', 'status']);
  step(['projects', 'ls']);
  step(['use', 'Northern Lights Catalog']);

  heading('Read the catalog');
  step(['contracts', 'ls', '--per-page', '5']);
  // The same list for a spreadsheet: RFC 4180 CSV, the JSON field names as the header.
  step(['contracts', 'ls', '--per-page', '3', '--format', 'csv', '--fields', 'id,file_name,created_at']);
  const [contract] = json(['contracts', 'ls', '--per-page', '1']);
  step(['contracts', 'get', contract.id, '--include', 'royalties,splits']);
  step(['contracts', 'download', contract.id, '-o', join(configDir, 'contract.pdf')]);
  step(['statements', 'ls', '--per-page', '5']);
  step(['entities', 'ls', '--roles', 'assignee', '--per-page', '5', '--merged']);
  step(['artists', 'ls', '--per-page', '5']);
  const [recording] = json(['recordings', 'ls', '--per-page', '1']);
  step(['recordings', 'get', recording.id, '--products']);
  step(['search', 'love', '--limit', '5']);
  const artists = pdsSync(['artists', 'ls', '--all', '-q'], env);
  process.stdout.write(`\n$ pds artists ls --all -q | wc -l\n${artists.stdout.trim().split('\n').length}\n`);

  heading('Errors are one line and an exit code');
  step(['artists', 'get', 'no-such-artist'], { expect: 5 });
  step(['contracts', 'ls', '--include', 'royaltys'], { expect: 2 });

  heading('Upload a statement and wait for processing');
  step(['upload', 'statement', join(root, 'test', 'fixtures', 'sample.pdf'), '--wait', '--interval', '0.3']);
  step([
    'upload',
    'contract',
    join(root, 'test', 'fixtures', 'sample.pdf'),
    '--extract',
    'royalties,splits',
    '--wait',
    '--interval',
    '0.3',
  ]);

  heading('Explore the project in the sandbox');
  step(['sandbox', 'ls']);
  step(['sandbox', 'exec', 'cat stats.yaml']);
  step(['sandbox', 'exec', 'grep -ril nova artists | head -5']);

  process.stdout.write(`\ndemo finished${failures ? ` with ${failures} unexpected exit code(s)` : ''}\n`);
} finally {
  await emulator.stop();
  rmSync(configDir, { recursive: true, force: true });
}
process.exitCode = failures ? 1 : 0;
