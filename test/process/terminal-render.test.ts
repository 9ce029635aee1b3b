// What a person sees on a 120- and a 60-column terminal: widths counted in cells (a CJK character is
// two), live lines that never wrap, and ids and commands never cut.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { ptyPds, runPds, signedInEnv } from '../helpers/process.js';

// Each step of processing takes a while, so a --wait redraws its live line many times.
const emulator = sharedEmulator({ flavor: 'current', processingMs: 300 });
const env = () => signedInEnv(emulator.url);
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/;

const CJK_NAME = '東京レコード株式会社の二〇二五年上半期印税明細書と追加資料';
const dir = mkdtempSync(join(tmpdir(), 'pds-render-'));
const CJK_PDF = join(dir, `${CJK_NAME}.pdf`);
copyFileSync('test/fixtures/sample.pdf', CJK_PDF);

// Where the CJK statement is listed: the pty tests show that one page of one record, since a pty
// may lose the tail of a long output when the process exits.
let cjkPage: string;
beforeAll(async () => {
  const upload = await runPds(['upload', 'statement', CJK_PDF, '--wait', '--interval', '0.1', '-q'], { env: env() });
  expect(upload.code).toBe(0);
  const listed = await runPds(['statements', 'ls', '--all'], { env: env() });
  cjkPage = String(
    listed.stdout
      .split('\n')
      .slice(1)
      .findIndex((line) => line.includes('東京')) + 1,
  );
});

describe.each([120, 60])('a %i-column terminal', (cols) => {
  it('`projects ls` shows every project id whole', async () => {
    const pty = await ptyPds(['projects', 'ls'], { env: env(), cols });
    await pty.waitFor(/\d+ projects/);
    expect((await pty.exited).code).toBe(0);
    const rows = await pty.screen();
    const body = rows.slice(1, -1);
    expect(body.length).toBeGreaterThan(0);
    // The current project is marked `*` in the first column.
    for (const row of body) expect(row).toMatch(new RegExp(`^[* ] {2}${UUID.source}  \\S`));
    expect(rows.join('\n')).toContain(DEMO_PROJECT);
    // No id cut (a cut one ends in hex digits and …; a name may end so too).
    expect(rows.join('\n')).not.toMatch(/-[0-9a-f]*…/);
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(cols);
  });

  it('`projects ls` gives a name the room that is free once the dates are dropped', async () => {
    const pty = await ptyPds(['projects', 'ls'], { env: env(), cols });
    await pty.waitFor(/\d+ projects/);
    expect((await pty.exited).code).toBe(0);
    const row = (await pty.screen()).find((r) => r.includes('Northern'));
    if (cols === 120) expect(row).toMatch(/ {2}Northern Lights Catalog {2,}\d{4}-\d\d-\d\d \d\d:\d\d$/);
    else {
      expect(row).toMatch(/^\* {2}\S+ {2}Northern Lights C\S*…$/);
      expect(stringWidth(row as string)).toBe(cols);
    }
  });

  it('after --wait the upload table keeps every id and the whole follow-up command, below the rows when they cannot hold it', async () => {
    const pty = await ptyPds(
      ['upload', 'contract', 'test/fixtures/sample.pdf', '--wait', '--extract', 'royalties', '--interval', '0.1'],
      { env: env(), cols },
    );
    await pty.waitFor(/pds contracts get \d+/);
    expect((await pty.exited).code).toBe(0);
    const rows = await pty.screen();
    for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(cols);
    const header = rows.findIndex((r) => r.startsWith('FILE'));
    expect(header).toBeGreaterThan(0);
    // A whole row: the base name, the staging id, the outcome, the contract id (a wrapped row would not match).
    const [, staging, contract] = /^sample\.pdf +(\d+) .*completed +(\d+)(?: |$)/.exec(rows[header + 1] ?? '') ?? [];
    expect(rows.join('\n')).toContain(`staging id ${staging}`);
    const command = `pds contracts get ${contract}`;
    if (cols === 120) {
      expect(rows[header]).toMatch(/^FILE +STAGING ID +STAGE +STATE +CONTRACT ID +NEXT$/);
      expect(rows[header + 1]).toMatch(new RegExp(`  ${command}$`));
    } else {
      // The stage beside the outcome is dropped, and the command leaves the row rather than be cut.
      expect(rows[header]).toMatch(/^FILE +STAGING ID +STATE +CONTRACT ID$/);
      expect(rows.slice(header + 2)).toEqual(['', 'NEXT', command]);
    }
  });

  it('measures a CJK name in cells, the next column keeping its gap; the file name goes before the name is cut unreadably', async () => {
    const pty = await ptyPds(['statements', 'ls', '--per-page', '1', '--page', cjkPage], { env: env(), cols });
    // The pty may report the exit before the last output is read: wait for the footer too.
    await pty.waitFor(/page \d+ of \d+/);
    expect((await pty.exited).code).toBe(0);
    const rows = await pty.screen();
    for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(cols);
    if (cols === 60) {
      // Too narrow for the file name to read (a cut name needs room), the FILE column goes whole;
      // the name, whose column is kept longer, gives way at its end.
      expect(rows[0]).toMatch(/^ID +NAME +TYPE/);
      expect(rows.find((r) => r.includes('東京'))).toMatch(/^\d+ +東京[^ ]*… +royalty/);
      return;
    }
    const row = rows.find((r) => r.includes('東京'));
    expect(row).toBeDefined();
    const header = rows.find((r) => r.startsWith('ID'));
    const cells = Array.from(row as string).flatMap((char) => (stringWidth(char) === 2 ? [char, ''] : [char]));
    // The columns line up in cells: the TYPE column starts where its header does, after a gap.
    const typeAt = (header as string).indexOf('TYPE');
    expect(cells.slice(typeAt - 2, typeAt).join('')).toBe('  ');
    expect(cells.slice(typeAt, typeAt + 7).join('')).toBe('royalty');
    for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(cols);
  });

  it('a live upload line with a CJK name never wraps: one line per file at the end, nothing left behind', async () => {
    const pty = await ptyPds(
      ['upload', 'statement', CJK_PDF, 'test/fixtures/sample.pdf', '--wait', '--interval', '0.1'],
      { env: env(), cols, rows: 30 },
    );
    await pty.waitFor(/2 uploaded, 0 skipped, 0 failed; 2 processed/);
    expect((await pty.exited).code).toBe(0);
    // Redrawn several times: the service went through its stages meanwhile.
    expect(pty.raw().match(/\u001b\[2A/g)?.length ?? 0).toBeGreaterThan(1);
    const rows = await pty.screen();
    const live = rows.filter((r) => /^[✓✗…↑·!] /.test(r));
    expect(live).toHaveLength(2);
    expect(live[0]).toMatch(/^✓ .*東京/);
    expect(live[1]).toMatch(/^✓ sample\.pdf {2}staging id \d+/);
    for (const r of live) expect(stringWidth(r)).toBeLessThan(cols);
    // Nothing of the live block is left above it: it starts the screen.
    expect(rows[0]).toBe(live[0]);
    expect(pty.cursorVisible()).toBe(true);
  });

  it('the upload table shows the whole file names and follow-up commands (a command below the table when a row cannot hold it)', async () => {
    const pty = await ptyPds(['upload', 'contract', 'test/fixtures/sample.pdf', CJK_PDF], { env: env(), cols });
    await pty.waitFor(/2 uploaded/);
    expect((await pty.exited).code).toBe(0);
    // What was written after the table's header, escape sequences aside: a file name wider than the
    // terminal wraps there rather than lose its end.
    const written = pty.raw().replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
    const table = written.slice(written.lastIndexOf('FILE'));
    expect(table).toContain(`${CJK_NAME}.pdf`);
    expect(table).toMatch(/^sample\.pdf {2}/m);
    const ids = [...table.matchAll(/\.pdf +(\d+)/g)].map((match) => match[1]);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(table).toMatch(new RegExp(`(^|  )pds contracts status ${id}\r?$`, 'm'));
  });
});
