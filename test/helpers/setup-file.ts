// Runs before each test file (vitest setupFiles). Every file gets a temporary directory of its own,
// made the file's TMPDIR, with an empty HOME inside it: whatever the tests, the emulators, pds and
// any other child process put in the temp dir lands there, nothing reads or writes the developer's
// home, and the whole directory is removed after the file's last test, even when a child was killed
// before it could clean up.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// pds in-process gets an env of its own (runCli), and children get childEnv(); still, what the
// developer's shell sets for pds itself must not reach a library or a test that reads process.env.
// PDS_TEST_* are settings of the tests (PDS_TEST_CHROMIUM), kept.
for (const name of Object.keys(process.env)) {
  if (/^(PDS_(?!TEST_)|ROYALTYPORT_)/.test(name)) delete process.env[name];
}

const saved = { TMPDIR: process.env.TMPDIR, HOME: process.env.HOME };
const root = mkdtempSync(join(tmpdir(), 'pds-tests-'));
process.env.TMPDIR = root;
process.env.HOME = join(root, 'home');
mkdirSync(process.env.HOME);

// Registered first, so it runs last: after the file's own afterAll hooks have closed what it started.
afterAll(() => {
  rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});
