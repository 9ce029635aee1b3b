// Waiting for an upload to be confirmed is bounded, in the built pds: endless identical events,
// keep-alive comments only, events that never confirm; --timeout and --wait-timeout end the wait.
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPds, signedInEnv } from '../helpers/process.js';
import { drain, seedService, startRogueServer, type RogueServer } from '../helpers/rogue-server.js';
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

describe('waiting for an upload to be confirmed is bounded', () => {
  it('endless identical 100 % events are silence: --timeout ends the wait, exit 1, how to find the upload', async () => {
    rogue = await neverConfirming(() => progress(40));
    const result = await runPds(['upload', 'contract', aPdf(), '--timeout', '1'], {
      env: signedInEnv(rogue.url),
      killAfterMs: 45_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `a.pdf: the service answered the upload but sent no event for 1 s; pds stopped waiting\n${FOLLOW}`,
    );
    // Ended by --timeout, not by the test's SIGKILL: the bound leaves a loaded machine room.
    expect(result.ms).toBeLessThan(20_000);
  });

  it('keep-alive comments only: --timeout ends the wait', async () => {
    rogue = await neverConfirming(() => ': keep-alive\n\n');
    const result = await runPds(['upload', 'contract', aPdf(), '--timeout', '1'], {
      env: signedInEnv(rogue.url),
      killAfterMs: 45_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'a.pdf: the service answered the upload but sent no event for 1 s; pds stopped waiting\n',
    );
    expect(result.ms).toBeLessThan(20_000);
  });

  it('events that keep changing and never confirm: --wait-timeout ends the wait overall', async () => {
    rogue = await neverConfirming((n) => progress(n));
    const result = await runPds(['upload', 'contract', aPdf(), '--timeout', '60', '--wait-timeout', '2'], {
      env: signedInEnv(rogue.url),
      killAfterMs: 45_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `a.pdf: the service answered the upload but did not confirm it within 2 s (--wait-timeout); pds stopped waiting\n${FOLLOW}`,
    );
    expect(result.ms).toBeGreaterThan(1_900);
    // Ended by --wait-timeout 2, long before the --timeout of 60 s.
    expect(result.ms).toBeLessThan(30_000);
  });
});
