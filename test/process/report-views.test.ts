// What a person sees of the reports (statements totals, a comparison, a pivot, lines --by, check) and of an upload's
// status in each of its states, at 60, 80 and 120 columns under a real pseudo-terminal against the
// emulator's deployed flavor. Each screen is held to a golden file (test/fixtures/views/reports/,
// rewritten on purpose with `npm run golden`) and to the width: no line wider than the terminal.
import { mkdtempSync, writeFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { ExactSum } from '../../src/lib/money/exact-sum.js';
import { formatMoney } from '../../src/lib/money/display.js';
import { testEmulator } from '../helpers/emulator.js';
import { ptyPds, runPds, signedInEnv } from '../helpers/process.js';

const GOLDEN = new URL('../fixtures/views/reports/', import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const WIDTHS = [60, 80, 120] as const;
const PDF = 'test/fixtures/sample.pdf';

/** Uploads wait an hour a step here: one made now stays queued while the test reads it. */
let slow: Emulator;
/** Uploads take no time here: a sound one completes, a damaged one fails its check at once. */
let quick: Emulator;
/** Uploads pause here (a processing quota reached) until retried. */
let paused: Emulator;
const uploads: Record<string, { emulator: () => Emulator; kind: 'statements' | 'contracts'; id: string }> = {};

const envOf = (emulator: Emulator) => signedInEnv(emulator.url, { NO_COLOR: '1', PDS_PAGER: '' });

async function upload(emulator: Emulator, kind: 'statement' | 'contract', file: string, extra: string[] = []) {
  const run = await runPds(['upload', kind, file, '-q', ...extra], { env: envOf(emulator) });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout.trim();
}

beforeAll(async () => {
  [slow, quick, paused] = await Promise.all([
    testEmulator({ flavor: 'deployed', processingMs: 3_600_000 }),
    testEmulator({ flavor: 'deployed', processingMs: 0 }),
    testEmulator({ flavor: 'deployed', processingMs: 0, pauseUploads: true }),
  ]);
  const damaged = join(mkdtempSync(join(tmpdir(), 'pds-report-views-')), 'damaged.pdf');
  // A PDF without its %%EOF trailer: the staging check fails it.
  writeFileSync(damaged, '%PDF-1.4\n1 0 obj << >> endobj\n');
  uploads['statement-queued'] = { emulator: () => slow, kind: 'statements', id: await upload(slow, 'statement', PDF) };
  uploads['statement-failed'] = {
    emulator: () => quick,
    kind: 'statements',
    id: await upload(quick, 'statement', damaged),
  };
  uploads['statement-paused'] = {
    emulator: () => paused,
    kind: 'statements',
    id: await upload(paused, 'statement', PDF),
  };
  uploads['contract-queued'] = { emulator: () => slow, kind: 'contracts', id: await upload(slow, 'contract', PDF) };
  uploads['contract-completed'] = {
    emulator: () => quick,
    kind: 'contracts',
    id: await upload(quick, 'contract', PDF, ['--extract', 'royalties,splits']),
  };
}, 60_000);
afterAll(async () => {
  await Promise.all([slow?.close(), quick?.close(), paused?.close()]);
});

/** The screen of one command at one width, as a person sees it, and its exit code. */
async function screenOf(emulator: Emulator, args: string[], cols: number, code = 0): Promise<string[]> {
  const pty = await ptyPds(args, { env: envOf(emulator), cols, rows: 50, killAfterMs: 30_000, wholeScreen: true });
  const exit = await pty.exited;
  const screen = await pty.screen();
  expect(exit.code, `${args.join(' ')} at ${cols}:\n${screen.join('\n')}`).toBe(code);
  return screen;
}

function holdsTo(screen: string[], cols: number, where: string): void {
  for (const line of screen)
    expect(stringWidth(line), `${where}: a line wider than ${cols}:\n${line}`).toBeLessThanOrEqual(cols);
}

function compareGolden(name: string, cols: number, screen: string[]): void {
  const file = new URL(`${name}.${cols}.txt`, GOLDEN);
  const text = `${screen.join('\n')}\n`;
  if (UPDATE) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file)) throw new Error(`no golden file ${file.pathname}: run npm run golden to write it`);
  expect(text, `reports/${name}.${cols}.txt (npm run golden rewrites it)`).toBe(readFileSync(file, 'utf8'));
}

type Report = [name: string, args: string[], code?: number];
const REPORTS: Report[] = [
  ['totals', ['statements', 'totals']],
  ['totals-by-payor', ['statements', 'totals', '--by', 'payor']],
  ['totals-by-period-payor', ['statements', 'totals', '--by', 'period,payor']],
  ['totals-by-type-category-top', ['statements', 'totals', '--by', 'type,category', '--top', '2']],
  ['totals-compare', ['statements', 'totals', '--by', 'payor', '--period', '2025H1', '--compare', 'previous']],
  ['totals-pivot', ['statements', 'totals', '--by', 'payor', '--columns', 'period', '--currency', 'USD']],
  ['lines-by-isrc', ['statements', 'lines', '40001', '--by', 'isrc']],
  ['lines-by-territory', ['statements', 'lines', '--all', '--by', 'territory']],
  ['lines-table', ['statements', 'lines', '40001', '--format', 'table']],
  ['check-all', ['statements', 'check', '--all'], 1],
  ['check-one', ['statements', 'check', '40001']],
];

describe(`the reports at ${WIDTHS.join(', ')} columns`, () => {
  it('fit the terminal and match their golden screens', { timeout: 300_000 }, async () => {
    for (const [name, args, code] of REPORTS) {
      for (const cols of WIDTHS) {
        const screen = await screenOf(slow, args, cols, code);
        holdsTo(screen, cols, `${args.join(' ')} at ${cols}`);
        compareGolden(name, cols, screen);
      }
    }
  });

  it("totals' total row per currency is the exact sum of its groups", { timeout: 60_000 }, async () => {
    const json = await runPds(['statements', 'totals', '--by', 'payor', '--json'], { env: envOf(slow) });
    const records = JSON.parse(json.stdout) as { currency: string; licensor_revenue: number; statements: number }[];
    const sums = new Map<string, { money: ExactSum; statements: number }>();
    for (const r of records) {
      const sum = sums.get(r.currency) ?? { money: new ExactSum(), statements: 0 };
      sum.money.add(String(r.licensor_revenue));
      sum.statements += r.statements;
      sums.set(r.currency, sum);
    }
    expect(sums.size).toBeGreaterThan(1);
    const screen = await screenOf(slow, ['statements', 'totals', '--by', 'payor'], 120);
    const totals = screen.filter((line) => line.startsWith('total '));
    expect(totals).toHaveLength(sums.size);
    for (const [currency, sum] of sums) {
      const money = formatMoney(sum.money.toNumber(), currency);
      expect(totals.some((line) => new RegExp(`^total\\s+${sum.statements}\\s+${money}`).test(line))).toBe(true);
    }
  });
});

const STATES = [
  'statement-completed',
  'statement-processing',
  'statement-queued',
  'statement-failed',
  'statement-paused',
  'contract-queued',
  'contract-completed',
] as const;

/** Where each state is found: seeded statements for completed and processing, uploads for the rest. */
function statusOf(state: (typeof STATES)[number]): { emulator: Emulator; args: string[]; code: number } {
  if (state === 'statement-completed') return { emulator: slow, args: ['statements', 'status', '40001'], code: 0 };
  if (state === 'statement-processing') return { emulator: slow, args: ['statements', 'status', '40006'], code: 0 };
  const upload = uploads[state];
  if (!upload) throw new Error(`no upload for ${state}`);
  return {
    emulator: upload.emulator(),
    args: [upload.kind, 'status', upload.id],
    code: state === 'statement-failed' ? 7 : 0,
  };
}

describe(`status of an upload in each state at ${WIDTHS.join(', ')} columns`, () => {
  it('reads as steps with marks, fits the terminal and matches its golden screen', { timeout: 300_000 }, async () => {
    for (const state of STATES) {
      const { emulator, args, code } = statusOf(state);
      for (const cols of WIDTHS) {
        const screen = await screenOf(emulator, args, cols, code);
        holdsTo(screen, cols, `${state} at ${cols}`);
        expect(screen.join('\n'), state).not.toMatch(/staging_check|processing_stage|staging_stage/);
        compareGolden(`status-${state}`, cols, screen);
      }
    }
  });

  it('several ids are a table, a row each, an unknown id saying why in its row', { timeout: 120_000 }, async () => {
    const queued = uploads['statement-queued']?.id as string;
    for (const cols of WIDTHS) {
      const screen = await screenOf(slow, ['statements', 'status', '40001', '40006', queued, '99999'], cols, 5);
      holdsTo(screen, cols, `several at ${cols}`);
      expect(screen[0]).toMatch(/^UPLOAD\s+STATE\s+STEPS/);
      compareGolden('status-several', cols, screen);
    }
  });
});
