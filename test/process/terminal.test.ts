// Ctrl-C on a real terminal: the built CLI under a pseudo-terminal, the screen rendered by a headless
// terminal. Every command ends with 130 within a second of Ctrl-C, shows the cursor again and leaves
// no half-drawn line.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { ptyPds, runPds, type PtyProcess, signedInEnv, until } from '../helpers/process.js';

const PDF = 'test/fixtures/sample.pdf';
// Processing never finishes during a test, so every watch and wait runs until Ctrl-C.
const emulator = sharedEmulator({ flavor: 'current', processingMs: 600_000, latencyMs: 150, scale: 20 });
const env = (extra: Record<string, string> = {}) => signedInEnv(emulator.url, extra);

async function stagingId(): Promise<number> {
  const upload = await runPds(['upload', 'contract', PDF, '-q'], { env: env() });
  expect(upload.code).toBe(0);
  return Number(upload.stdout.trim());
}

/** Types Ctrl-C once `ready` has shown; resolves to the exit and how long it took after the key. */
async function interrupt(
  pty: PtyProcess,
  ready: RegExp | string,
): Promise<{ code: number | null; afterKeyMs: number }> {
  await pty.waitFor(ready);
  // Let a redraw or two happen, so Ctrl-C lands mid-animation.
  await new Promise((resolve) => setTimeout(resolve, 250));
  const pressed = Date.now();
  pty.write('\u0003');
  const exit = await pty.exited;
  const afterKeyMs = Date.now() - pressed;
  // The pty may report the exit before the last output is read: the cursor shown again comes last.
  await pty.waitFor('\u001b[?25h', 2000).catch(() => undefined);
  return { code: exit.code, afterKeyMs };
}

/** The rows of the screen that show text (a terminal echoes `^C` where the cursor was). */
async function shown(pty: PtyProcess): Promise<string[]> {
  return (await pty.screen()).map((row) => row.replace(/\^C/g, '').trimEnd()).filter(Boolean);
}

describe.each([120, 60])('Ctrl-C on a terminal %i columns wide', (cols) => {
  it('ends `contracts status --watch` with 130 at once, the spinner cleared and the cursor shown', async () => {
    const id = await stagingId();
    const pty = await ptyPds(['contracts', 'status', String(id), '--watch', '--interval', '0.2'], { env: env(), cols });
    const { code, afterKeyMs } = await interrupt(pty, /staging queued/);
    expect(code).toBe(130);
    expect(afterKeyMs).toBeLessThan(1000);
    expect(pty.cursorVisible()).toBe(true);
    // The spinner line is gone: nothing half-drawn stays on the screen.
    expect(await shown(pty)).toEqual([]);
  });

  it('ends `upload --wait` with 130, keeps the final lines and says how to follow the upload', async () => {
    const pty = await ptyPds(['upload', 'contract', PDF, '--wait', '--interval', '0.2'], { env: env(), cols });
    const { code, afterKeyMs } = await interrupt(pty, /staging id \d+/);
    await pty.waitFor(/follow it with `pds contracts status \d+`/);
    expect(code).toBe(130);
    expect(afterKeyMs).toBeLessThan(1000);
    expect(pty.cursorVisible()).toBe(true);
    const rows = await shown(pty);
    const id = /staging id (\d+)/.exec(pty.raw())?.[1];
    // One live line, drawn whole, then the warning (wrapped at 60 columns, so joined to read it).
    expect(rows[0]).toMatch(new RegExp(`^… sample.pdf {2}staging id ${id} · staging queu(ed|…)$`));
    expect(rows.filter((row) => row.includes('sample.pdf  staging id'))).toHaveLength(1);
    expect(rows.slice(1).join('')).toBe(
      `warning: test/fixtures/sample.pdf was uploaded (staging id ${id}); processing goes on in the service: follow it with \`pds contracts status ${id}\``,
    );
  });

  it('ends `artists ls --all` with 130 between pages', async () => {
    const before = emulator.requests.length;
    const pty = await ptyPds(['artists', 'ls', '--all', '--per-page', '5'], { env: env(), cols });
    // A table waits for its last page: nothing shows before Ctrl-C, and a finished run would exit 0.
    // Ctrl-C once the first page has been asked for (pds is running, its handlers set), not after
    // a guessed delay; the second counts from the key.
    await until(
      () => emulator.requests.slice(before).some((request) => request.path.includes('/artists')),
      'the first page of artists',
    );
    const pressed = Date.now();
    pty.write('\u0003');
    const exit = await pty.exited;
    expect(exit.code).toBe(130);
    expect(Date.now() - pressed).toBeLessThan(1000);
    expect(pty.cursorVisible()).toBe(true);
  });

  it('leaves `sandbox shell` with 130 on Ctrl-C at an empty prompt', async () => {
    const pty = await ptyPds(['sandbox', 'shell'], { env: env(), cols });
    const { code, afterKeyMs } = await interrupt(pty, '$ ');
    expect(code).toBe(130);
    expect(afterKeyMs).toBeLessThan(1000);
    const rows = await shown(pty);
    expect(rows.at(-1)).toMatch(/^pds:Northern Lights Catalog:\/\$ ?$/);
  });
});

describe('Ctrl-C while an upload is being sent', () => {
  // A service that reads the body slowly and never answers: the upload is in flight at Ctrl-C. It
  // has no signed-URL uploads (404), so the body is the multipart upload's.
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if ((req.url ?? '').includes('/uploads')) {
        res.writeHead(404).end();
        return;
      }
      req.on('data', () => {
        req.pause();
        setTimeout(() => req.resume(), 200);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([120, 60])('ends with 130 at %i columns, the live line drawn once and the doubt said', async (cols) => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'pds-big-'));
    const file = join(dir, 'big.pdf');
    writeFileSync(file, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(8 * 1024 * 1024, 32)]));
    // Named from its directory: at 60 columns a long temp dir path would not leave room for the progress.
    const pty = await ptyPds(['upload', 'contract', 'big.pdf'], { env: env({ PDS_API_URL: url }), cols, cwd: dir });
    const { code, afterKeyMs } = await interrupt(pty, /% sent/);
    await pty.waitFor(/may have been received/);
    expect(code).toBe(130);
    expect(afterKeyMs).toBeLessThan(1000);
    expect(pty.cursorVisible()).toBe(true);
    const rows = await shown(pty);
    expect(rows.filter((row) => row.startsWith('↑ '))).toHaveLength(1);
    expect(rows[0]).toMatch(/^↑ .*big\.pdf {2}[\d.]+ (KiB|MiB) \/ 8\.0 MiB {2}\d+% sent$/);
    // The terminal wrapped the warning: its full rows, trailing blanks given back, make the line.
    expect(
      rows
        .slice(1)
        .map((row, i, all) => (i < all.length - 1 ? row.padEnd(cols) : row))
        .join(''),
    ).toMatch(
      /^warning: the upload of .*big\.pdf was interrupted; check with `pds contracts ls` before retrying: the upload may have been received$/,
    );
  });
});
