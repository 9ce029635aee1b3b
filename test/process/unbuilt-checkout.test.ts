// A checkout before `npm run build` (npm install builds nothing since prepare became prepack): the
// shim says what to run instead of failing with ENOENT and a stack; --version still answers.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const checkout = mkdtempSync(join(tmpdir(), 'pds-unbuilt-'));
mkdirSync(join(checkout, 'bin'));
for (const file of ['bin/pds.js', 'bin/package.json', 'package.json']) {
  copyFileSync(new URL(`../../${file}`, import.meta.url), join(checkout, file));
}
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

const run = (args: string[]) =>
  spawnSync(process.execPath, [join(checkout, 'bin/pds.js'), ...args], { encoding: 'utf8', timeout: 15_000 });

describe('a checkout without dist/', () => {
  it('says to build, exit 1, nothing on stdout', () => {
    const result = run(['projects', 'ls']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: pds is not built here (no dist/cli.cjs)\n  run `npm run build` in the checkout\n',
    );
  });

  it('still answers --version from package.json', () => {
    const result = run(['--version']);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
