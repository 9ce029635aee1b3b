// Shared by the demo and the bench: run the built CLI, and an emulator in a child process.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const pdsBin = join(root, 'bin', 'pds.js');

export function requireBuild() {
  if (!existsSync(join(root, 'dist', 'cli.cjs'))) {
    process.stderr.write('dist/ is missing: run `npm install` (or `npm run build`) first\n');
    process.exit(1);
  }
}

/**
 * Starts `pds emulator start --port 0 …` and resolves once it prints its address.
 * The child is killed when this process exits.
 */
export function startEmulator(args = []) {
  return startServer([pdsBin, 'emulator', 'start', '--port', '0', '--quiet', ...args]);
}

/**
 * Starts `node …args`, a server whose first line is `… listening on <url>` (the emulator, or a
 * floor of the bench), and resolves with its address, its pid and a way to stop it.
 */
export function startServer(args, env = {}) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // SIGINT, as Ctrl-C: the emulator then removes its temporary files (SIGTERM would leave them).
  const killOnExit = () => child.kill('SIGINT');
  process.on('exit', killOnExit);
  // One listener per server while it runs: the bench starts more than ten in one run.
  child.once('exit', () => process.off('exit', killOnExit));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (!match) {
        reject(new Error(`unexpected first line from ${args.join(' ')}: ${line}`));
        return;
      }
      // Keep draining its stdout so the child never blocks on a full pipe.
      lines.on('line', () => undefined);
      resolve({
        url: match[1],
        pid: child.pid,
        /** Stops it with Ctrl-C's signal; it must be gone within 2 s, or it is killed and we say so. */
        stop: () =>
          new Promise((done) => {
            const late = setTimeout(() => {
              process.stderr.write(`${args.join(' ')} did not stop within 2 s of SIGINT: killed\n`);
              process.exitCode = 1;
              child.kill('SIGKILL');
            }, 2000);
            child.once('exit', () => {
              clearTimeout(late);
              done();
            });
            child.kill('SIGINT');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with code ${code}`)));
  });
}

/** Runs pds to completion and returns its output (for steps that need data, not display). */
export function pdsSync(args, env, options = {}) {
  const result = spawnSync(process.execPath, [pdsBin, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    ...options,
  });
  if (result.error) throw result.error;
  return result;
}
