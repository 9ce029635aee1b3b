// Issue 20, bounded waits in the built pds: an upload answer that never confirms (items 7), and a
// --jq expression that never ends (item 8).
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv, startPds } from '../helpers/process.js';
import { drain, seedService, startRogueServer, type RogueServer } from '../helpers/rogue-server.js';

const emulator = sharedEmulator();
let rogue: RogueServer | undefined;
afterEach(async () => {
  await rogue?.close();
  rogue = undefined;
});

function aPdf(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pds-trust-')), 'a.pdf');
  writeFileSync(file, '%PDF-1.4\n% a small file\n%%EOF\n');
  return file;
}

/** An upload endpoint that takes the body, then streams `next()` every 50 ms and never confirms. */
async function neverConfirming(next: (n: number) => string): Promise<RogueServer> {
  // A service of the seed's form: the multipart upload answered with an event stream.
  return startRogueServer(
    seedService((req, res: ServerResponse) => {
      void drain(req).then(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        let n = 0;
        const timer = setInterval(() => {
          if (res.destroyed) return clearInterval(timer);
          res.write(next(n++));
        }, 50);
        res.on('close', () => clearInterval(timer));
      });
    }),
  );
}

const progress = (bytes: number) =>
  `event: progress\ndata: ${JSON.stringify({ bytesUploaded: bytes, bytesTotal: bytes, percent: 100 })}\n\n`;
const FOLLOW =
  '  the service has received the file: follow it with `pds contracts status <staging-id>` (find the id with `pds contracts ls`)\n';

describe('7. waiting for an upload to be confirmed is bounded', () => {
  it('endless identical 100 % events are silence: --timeout ends the wait, exit 1, how to find the upload', async () => {
    rogue = await neverConfirming(() => progress(40));
    const result = await runPds(['upload', 'contract', aPdf(), '--timeout', '1'], {
      env: signedInEnv(rogue.url),
      killAfterMs: 20_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `a.pdf: the service answered the upload but sent no event for 1 s; pds stopped waiting\n${FOLLOW}`,
    );
    expect(result.ms).toBeLessThan(6_000);
  });

  it('keep-alive comments only: --timeout ends the wait', async () => {
    rogue = await neverConfirming(() => ': keep-alive\n\n');
    const result = await runPds(['upload', 'contract', aPdf(), '--timeout', '1'], {
      env: signedInEnv(rogue.url),
      killAfterMs: 20_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'a.pdf: the service answered the upload but sent no event for 1 s; pds stopped waiting\n',
    );
    expect(result.ms).toBeLessThan(6_000);
  });

  it('events that keep changing and never confirm: --wait-timeout ends the wait overall', async () => {
    rogue = await neverConfirming((n) => progress(n));
    const result = await runPds(['upload', 'contract', aPdf(), '--timeout', '60', '--wait-timeout', '2'], {
      env: signedInEnv(rogue.url),
      killAfterMs: 20_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `a.pdf: the service answered the upload but did not confirm it within 2 s (--wait-timeout); pds stopped waiting\n${FOLLOW}`,
    );
    expect(result.ms).toBeGreaterThan(1_900);
    expect(result.ms).toBeLessThan(8_000);
  });
});

describe('8. --jq is bounded and can be interrupted', () => {
  it.each([['def f: f; f'], ['[range(1e9)] | length']])(
    '%j: Ctrl-C stops it within a second, exit 130',
    async (expression) => {
      const pds = startPds(['projects', 'ls', '--jq', expression], { env: signedInEnv(emulator.url) });
      // The expression is first run on null (to check it compiles): it is running by now.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(pds.child.exitCode).toBeNull();
      const sent = Date.now();
      pds.child.kill('SIGINT');
      const exit = await pds.exited;
      expect(exit.code).toBe(130);
      expect(Date.now() - sent).toBeLessThan(1_000);
    },
  );

  it('a runaway expression on the data stops after --jq-timeout: exit 2 naming it', async () => {
    const pds = await runPds(
      ['projects', 'ls', '--jq', 'if type == "array" then last(repeat(1)) else . end', '--jq-timeout', '1'],
      { env: signedInEnv(emulator.url) },
    );
    expect(pds).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'error: --jq: the expression \'if type == "array" then last(repeat(1)) else . end\' did not finish within 1 s\n  raise the limit with --jq-timeout <seconds>\n',
    });
    expect(pds.ms).toBeLessThan(5_000);
    // The data was fetched: the limit applied to jq, not to the request.
    expect(emulator.requests.map((r) => r.path)).toEqual(['/v1/projects']);
  });

  it('the default limit is 10 s', async () => {
    const pds = await runPds(['projects', 'ls', '--jq', 'def f: f; f'], {
      env: signedInEnv(emulator.url),
      killAfterMs: 30_000,
    });
    expect(pds.code).toBe(2);
    expect(pds.stderr).toContain('did not finish within 10 s');
    expect(pds.ms).toBeGreaterThan(9_900);
    expect(emulator.requests).toEqual([]);
  }, 30_000);

  it.each([['0'], ['abc'], ['4000']])('--jq-timeout %j: exit 2, nothing sent', async (given) => {
    const pds = await runPds(['projects', 'ls', '--jq', '.', '--jq-timeout', given], {
      env: signedInEnv(emulator.url),
    });
    expect(pds).toMatchObject({
      code: 2,
      stderr: `error: invalid --jq-timeout '${given}': expected seconds from 0.1 to 3600\n`,
    });
    expect(emulator.requests).toEqual([]);
  });

  it('an ordinary expression still works, and the process ends right after its output', async () => {
    const pds = await runPds(['projects', 'ls', '--jq', '.[].name'], { env: signedInEnv(emulator.url) });
    expect(pds).toMatchObject({ code: 0, stdout: 'Northern Lights Catalog\nHarbor Sessions\n', stderr: '' });
    expect(pds.afterLastOutputMs).toBeLessThan(500);
  });
});
