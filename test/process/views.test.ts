// What a person sees of every read command at 60, 80 and 120 columns, under a real pseudo-terminal:
// against the emulator's default (deployed) flavor and against the replay of the deployed service's
// example answers. Each screen is held to a golden file (test/fixtures/views/, rewritten only on
// purpose with UPDATE_GOLDEN=1), and to the rules of the views: no line wider than the terminal, no
// header cut, every id whole, nothing drawn as JSON or as a JavaScript object.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { childEnv, ptyPds, runPds, signedInEnv } from '../helpers/process.js';
import { example, type ReplayServer, startReplayServer } from '../helpers/replay-server.js';

const GOLDEN = new URL('../fixtures/views/', import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const WIDTHS = [60, 80, 120] as const;

type Read = [name: string, args: string[]];
const INCLUDES = 'royalties,splits,accounting-periods,commitments,dates,compensations,recordings';

/** Every include the deployed service takes, and the seed's (SPEC.md): each drawn as rows, never a bare count. */
const ALL_INCLUDES =
  'entities,artists,writers,royalties,splits,costs,compensations,dates,accounting-periods,types,languages,signatures,control-areas,creative-approvals,commitments,balances,recordings,compositions,relations,targets';
const SEED_INCLUDES =
  'entities,artists,writers,royalties,splits,costs,compensations,dates,accounting-periods,types,signatures,control-areas,creative-approvals,balances,recordings,compositions';

const EMULATOR_READS: Read[] = [
  ['projects-ls', ['projects', 'ls']],
  ['projects-get', ['projects', 'get']],
  ['contracts-get-all', ['contracts', 'get', '20001', '--include', ALL_INCLUDES, '--score', '--citations']],
  ['contracts-ls-score', ['contracts', 'ls', '--score', '--per-page', '5']],
  ['statements-get-detailed', ['statements', 'get', '40001', '--detailed', '--score']],
  ['entities-get-merged', ['entities', 'get', '1000002', '--merged']],
  ['relations-get', ['relations', 'get', '2000003', '--merged']],
  ['artists-get', ['artists', 'get', '3000007', '--merged']],
  ['writers-get', ['writers', 'get', '4000008', '--merged']],
  ['contracts-ls', ['contracts', 'ls']],
  ['contracts-ls-includes', ['contracts', 'ls', '--include', 'royalties,splits']],
  ['contracts-get-royalties', ['contracts', 'get', '20001', '--include', 'royalties']],
  ['contracts-get-includes', ['contracts', 'get', '20001', '--include', INCLUDES]],
  ['statements-ls', ['statements', 'ls']],
  ['statements-get', ['statements', 'get', '40001']],
  ['entities-ls', ['entities', 'ls']],
  ['entities-get', ['entities', 'get', '1000001']],
  ['relations-ls', ['relations', 'ls']],
  ['artists-ls', ['artists', 'ls']],
  ['writers-ls', ['writers', 'ls']],
  ['recordings-ls', ['recordings', 'ls']],
  ['recordings-get', ['recordings', 'get', '5000001', '--products']],
  ['compositions-ls', ['compositions', 'ls']],
  ['compositions-get', ['compositions', 'get', '6000001']],
  ['search', ['search', 'nova']],
  ['knowledge-search', ['knowledge', 'search', 'royalty']],
];

// The seed's forms (SPEC.md): string ids, includes as top-level keys in the seed's shapes.
const SEED_READS: Read[] = [
  ['projects-get', ['projects', 'get']],
  ['contracts-get-all', ['contracts', 'get', '20001', '--include', SEED_INCLUDES]],
  ['statements-get', ['statements', 'get', '40001']],
  ['entities-get', ['entities', 'get', 'ent_00002', '--merged']],
  ['relations-get', ['relations', 'get', 'rel_00003', '--merged']],
  ['artists-get', ['artists', 'get', 'art_00007', '--merged']],
  ['writers-get', ['writers', 'get', 'wri_00008', '--merged']],
  ['recordings-get', ['recordings', 'get', 'rec_00001', '--products']],
  ['compositions-get', ['compositions', 'get', 'com_00001', '--products']],
  ['search', ['search', 'nova']],
];

const REPLAY_READS: Read[] = [
  ['projects-get', ['projects', 'get']],
  ['relations-get', ['relations', 'get', String(example('relations.list').data.items[0].id), '--merged']],
  ['artists-get', ['artists', 'get', String(example('artists.list.merged').data.items[0].id), '--merged']],
  ['compositions-get', ['compositions', 'get', String(example('compositions.list').data.items[0].id), '--products']],
  ['projects-ls', ['projects', 'ls']],
  ['contracts-ls', ['contracts', 'ls', '--include', 'royalties,splits']],
  ['contracts-get', ['contracts', 'get', '61001', '--include', INCLUDES, '--score', '--extractor-ids', '12']],
  ['statements-ls', ['statements', 'ls']],
  ['statements-get', ['statements', 'get', '72001', '--detailed']],
  ['entities-get', ['entities', 'get', '9301']],
  ['relations-ls', ['relations', 'ls']],
  ['artists-ls', ['artists', 'ls', '--merged']],
  ['writers-get', ['writers', 'get', '3501']],
  ['recordings-ls', ['recordings', 'ls']],
  ['recordings-get', ['recordings', 'get', '7701', '--products']],
  ['compositions-ls', ['compositions', 'ls']],
  ['tags-ls', ['tags', 'ls']],
  ['search', ['search', 'glass']],
  ['knowledge-search', ['knowledge', 'search', 'approval']],
];

type Source = 'emulator' | 'seed' | 'replay';

let emulator: Emulator;
let seed: Emulator;
let replay: ReplayServer;
beforeAll(async () => {
  [emulator, seed, replay] = await Promise.all([
    testEmulator({ flavor: 'deployed' }),
    testEmulator({ flavor: 'seed' }),
    startReplayServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([emulator?.close(), seed?.close(), replay?.close()]);
});

const envOf = (source: Source) =>
  source !== 'replay'
    ? signedInEnv((source === 'seed' ? seed : emulator).url, { NO_COLOR: '1', PDS_PAGER: '' })
    : signedInEnv(replay.url, {
        NO_COLOR: '1',
        PDS_PAGER: '',
        PDS_TOKEN: 'replay-token',
        PDS_PROJECT: example('projects.get').data.id,
      });

/** The screen of one read at one width, as a person sees it. */
async function screenOf(source: Source, args: string[], cols: number): Promise<string[]> {
  const pty = await ptyPds(args, { env: envOf(source), cols, rows: 60, killAfterMs: 30_000, wholeScreen: true });
  const exit = await pty.exited;
  const screen = await pty.screen();
  expect(exit.code, `${args.join(' ')} at ${cols}:\n${screen.join('\n')}`).toBe(0);
  return screen;
}

/** The ids a list or a record holds, from its JSON: each must be drawn whole. */
async function idsOf(source: Source, args: string[]): Promise<string[]> {
  const run = await runPds([...args, '--json'], { env: envOf(source) });
  expect(run.code).toBe(0);
  const data = JSON.parse(run.stdout);
  const records: unknown[] = Array.isArray(data) ? data : [data];
  return records.flatMap((record) =>
    record && typeof record === 'object' && 'id' in record ? [String((record as { id: unknown }).id)] : [],
  );
}

function checkRules(screen: string[], cols: number, ids: string[], where: string): void {
  for (const line of screen) {
    expect(stringWidth(line), `${where}: a line wider than ${cols}:\n${line}`).toBeLessThanOrEqual(cols);
    expect(line, where).not.toMatch(/\{"|\[\{|\[object/);
  }
  const text = screen.join('\n');
  for (const id of ids.slice(0, 20))
    expect(text, `${where}: the id ${id} whole`).toMatch(new RegExp(`(^|\\s)${id}(\\s|$)`, 'm'));
  // A list's header: every word whole (a column too narrow for its header goes instead).
  const header = screen[0] ?? '';
  if (/^[A-Z][A-Z_ -]+$/.test(header.trim())) expect(header, `${where}: a cut header`).not.toContain('…');
}

/** The servers' ports change from run to run: a signed URL is compared without its own. */
const portless = (text: string): string =>
  text
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:PORT')
    // A signed link's expiry and signature change with the clock.
    .replace(/expires=\d+&signature=[0-9a-f]+/g, 'expires=EXPIRES&signature=SIGNATURE');

function compareGolden(source: string, name: string, cols: number, screen: string[]): void {
  const dir = new URL(`${source}/`, GOLDEN);
  const file = new URL(`${name}.${cols}.txt`, dir);
  const text = portless(`${screen.join('\n')}\n`);
  if (UPDATE || !existsSync(file)) {
    if (!UPDATE) throw new Error(`no golden file ${file.pathname}: run with UPDATE_GOLDEN=1 to write it`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, text);
    return;
  }
  expect(text, `${source}/${name}.${cols}.txt (UPDATE_GOLDEN=1 rewrites it)`).toBe(readFileSync(file, 'utf8'));
}

/** A few at a time: each is a process on a pty. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

for (const [source, reads] of [
  ['emulator', EMULATOR_READS],
  ['seed', SEED_READS],
  ['replay', REPLAY_READS],
] as const) {
  describe(`every read command against the ${source}, at ${WIDTHS.join(', ')} columns`, () => {
    it('fits the terminal, draws ids whole and no JSON, and matches its golden screen', {
      timeout: 300_000,
    }, async () => {
      await eachLimited(reads, 3, async ([name, args]) => {
        const ids = await idsOf(source, args);
        for (const cols of WIDTHS) {
          const screen = await screenOf(source, args, cols);
          checkRules(screen, cols, ids, `${source} ${args.join(' ')} at ${cols}`);
          compareGolden(source, name, cols, screen);
        }
      });
    });
  });
}

// Piped output and the data formats, byte for byte against reference files. `npm run golden`
// (UPDATE_GOLDEN=1) rewrites them from this build, with the screens; CAPTURE_PIPED_FROM=<another
// build's bin/pds.js> takes them from that build instead (to compare a change against it).
const CAPTURE_FROM = process.env.CAPTURE_PIPED_FROM;
const PIPED_FORMATS: [string, string[]][] = [
  ['tsv', []],
  ['json', ['--json']],
  ['csv', ['--format', 'csv']],
];

async function piped(source: Source, args: string[]): Promise<string> {
  if (CAPTURE_FROM) {
    const { stdout } = await promisify(execFile)(process.execPath, [CAPTURE_FROM, ...args], {
      env: childEnv(envOf(source)),
      maxBuffer: 64 * 1024 * 1024,
    });
    return portless(stdout);
  }
  const run = await runPds(args, { env: envOf(source) });
  expect(run.code, run.stderr).toBe(0);
  return portless(run.stdout);
}

for (const [source, reads] of [
  ['emulator', EMULATOR_READS],
  ['replay', REPLAY_READS],
] as const) {
  it(`piped TSV, JSON and CSV of every read against the ${source} are unchanged, byte for byte`, {
    timeout: 300_000,
  }, async () => {
    await eachLimited(reads, 3, async ([name, args]) => {
      for (const [format, flags] of PIPED_FORMATS) {
        const file = new URL(`piped/${source}/${name}.${format}`, GOLDEN);
        const out = await piped(source, [...args, ...flags]);
        if (UPDATE) {
          mkdirSync(new URL('.', file), { recursive: true });
          writeFileSync(file, out);
          continue;
        }
        expect(out, `${source} ${args.join(' ')} ${format}`).toBe(readFileSync(file, 'utf8'));
      }
    });
  });
}

it("the guide's example is what pds draws at 80 columns: the start of contracts get 20001 --include royalties", () => {
  const readme = readFileSync(new URL('../../docs/guide.md', import.meta.url), 'utf8');
  const shown = /--include royalties` at 80\ncolumns[^\n]*\n\n```text\n([^]*?)```/.exec(readme)?.[1];
  expect(shown).toBeDefined();
  const golden = readFileSync(new URL('emulator/contracts-get-royalties.80.txt', GOLDEN), 'utf8');
  expect(golden.startsWith(shown as string)).toBe(true);
});
