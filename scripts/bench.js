// `npm run bench`: the speed and memory figures of pds, each beside its floor in the same run — a
// bare Node script doing the same work (scripts/floor/), or else the figure of the previous run —
// with the ratio, the goal and whether it is met. It prints one table and writes it as JSON to
// bench/results.json (BENCH_RESULTS overrides the path) so a regression shows in review. It
// measures, it does not judge: it exits 0 unless a measured command itself failed.
//
// BENCH_QUICK=1: a smoke run (small catalogs, few runs) that checks the bench itself works.
// `npm run bench -- <part>…`: only those parts (startup, lists, uploads, emulator, rollup, files), and
// bench/results.json is left as it is.
// Peak memory and CPU come from a preload (scripts/rss-probe.cjs) that writes the child's own
// figures when it exits, so no external `time` binary is needed.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pdsBin, requireBuild, root, startEmulator } from './lib.js';
import { emulatorFigures } from './bench-emulator.js';
import { fileFigures, rollupFigures } from './bench-rollup.js';

requireBuild();
const quick = process.env.BENCH_QUICK === '1';
const runs = Number(process.env.BENCH_RUNS ?? (quick ? 1 : 15));
const listRuns = quick ? 1 : 5;
/** The two catalogs of the list figures: `--scale` of the small one, then of the large one. */
const scales = quick ? [1, 10] : [100, 1000];
const resultsFile = process.env.BENCH_RESULTS ?? join(root, 'bench', 'results.json');
const work = mkdtempSync(join(tmpdir(), 'pds-bench-'));
const probe = join(root, 'scripts', 'rss-probe.cjs');
const floor = (name) => join(root, 'scripts', 'floor', name);
const previous = readPrevious();

function readPrevious() {
  try {
    return new Map(JSON.parse(readFileSync(resultsFile, 'utf8')).rows.map((row) => [row.figure, row]));
  } catch {
    return new Map();
  }
}

/** Runs `node …args` to completion: wall ms, and (with the probe) peak RSS in MiB and CPU ms. */
function timed(args, env = {}, { probed = false } = {}) {
  const probeFile = join(work, `probe-${Math.random().toString(36).slice(2)}`);
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, probed ? ['--require', probe, ...args] : args, {
    env: { ...process.env, ...env, ...(probed ? { PDS_RSS_FILE: probeFile } : {}) },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${String(result.stderr).slice(0, 500)}`);
  }
  if (!probed) return { ms };
  const { maxRssKb, cpuMs } = JSON.parse(readFileSync(probeFile, 'utf8'));
  return { ms, rssMb: maxRssKb / 1024, cpuMs };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * pds and its floor, run alternately `count` times (a shared machine's speed drifts from one second
 * to the next): the median of each figure, and the median of the pairs' ratios.
 */
function sideBySide(count, pdsArgs, floorArgs, env, options) {
  timed(floorArgs, env, options); // warm the file system cache
  timed(pdsArgs, env, options);
  const pairs = Array.from({ length: count }, () => ({
    base: timed(floorArgs, env, options),
    pds: timed(pdsArgs, env, options),
  }));
  const of = (side, key) => median(pairs.map((pair) => pair[side][key]));
  const ratio = (key) => median(pairs.map((pair) => pair.pds[key] / pair.base[key]));
  const peak = (side) => (options?.probed ? Math.max(...pairs.map((pair) => pair[side].rssMb)) : undefined);
  return {
    pds: { ms: of('pds', 'ms'), cpuMs: of('pds', 'cpuMs'), rssMb: peak('pds') },
    base: { ms: of('base', 'ms'), cpuMs: of('base', 'cpuMs'), rssMb: peak('base') },
    ratio: { ms: ratio('ms'), cpuMs: options?.probed ? ratio('cpuMs') : undefined },
  };
}

const rows = [];
/**
 * One row. `pds` and `base` are numbers in `unit`; a row without a floor is compared with the same
 * figure of the previous run. `goal` reads the ratio (or the figure) and says whether it is met.
 */
function row(figure, unit, pds, base, goal, baseIs = 'bare node') {
  const before = previous.get(figure)?.pds;
  const against = base ?? (typeof before === 'number' ? before : undefined);
  const ratio = against ? pds / against : undefined;
  const met = goal ? goal.check(pds, ratio) : undefined;
  rows.push({
    figure,
    unit,
    pds,
    base: against,
    baseIs: base === undefined ? 'previous run' : baseIs,
    ratio,
    goal: goal?.text ?? '',
    met,
  });
  process.stderr.write(
    `  ${figure}: ${formatValue(pds, unit)}${against === undefined ? '' : ` (${formatValue(against, unit)}, ${rows.at(-1).baseIs})`}\n`,
  );
}

const ratioAtMost = (limit) => ({ text: `≤ ${limit}x bare node`, check: (_value, ratio) => ratio <= limit });
const atMost = (limit, unit) => ({ text: `≤ ${limit} ${unit}`, check: (value) => value <= limit });

function printTable() {
  const cells = rows.map((r) => [
    r.figure,
    `${formatValue(r.pds, r.unit)}`,
    r.base === undefined ? '' : `${formatValue(r.base, r.unit)}${r.baseIs === 'bare node' ? '' : ` (${r.baseIs})`}`,
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x`,
    r.goal,
    r.met === undefined ? '' : r.met ? 'met' : 'MISSED',
  ]);
  const header = ['figure', 'pds', 'bare node', 'ratio', 'goal', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) =>
    c
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${line(header)}\n${cells.map(line).join('\n')}\n`);
  const missed = rows.filter((r) => r.met === false).map((r) => r.figure);
  process.stdout.write(missed.length === 0 ? '\nevery goal met\n' : `\ngoals missed: ${missed.join('; ')}\n`);
}

function formatValue(value, unit) {
  return unit === 'x' ? value.toFixed(2) : `${value.toFixed(unit === 'MiB' ? 1 : 0)} ${unit}`;
}

function writeResults() {
  mkdirSync(dirname(resultsFile), { recursive: true });
  const body = { node: process.version, quick, date: new Date().toISOString(), rows };
  writeFileSync(resultsFile, `${JSON.stringify(body, null, 2)}\n`);
}

/** `pds --version` against `node -e 0`, and `pds projects ls` against one GET with node:http. */
function startupFigures(env) {
  const version = sideBySide(runs, [pdsBin, '--version'], ['-e', '0'], env);
  row('pds --version, ms', 'ms', version.pds.ms, version.base.ms, ratioAtMost(1.15));
  const projects = sideBySide(runs, [pdsBin, 'projects', 'ls'], [floor('get.js'), '/v1/projects'], env);
  row('pds projects ls, ms', 'ms', projects.pds.ms, projects.base.ms, ratioAtMost(1.3));
}

function countArtists(env) {
  const ids = spawnSync(process.execPath, [pdsBin, 'artists', 'ls', '--all', '-q'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return ids.stdout.trim().split('\n').length;
}

/** How each list figure prints: pds's flags, and the same form from the floor (scripts/floor/walk.js). */
const FORMATS = [
  { name: '--json', flags: ['--json'], floor: 'json' },
  { name: '--format ndjson', flags: ['--format', 'ndjson'], floor: 'ndjson' },
  { name: '--format csv', flags: ['--format', 'csv'], floor: 'csv' },
];

/** The floor that also checks each page as pds does (walk.js --checked). */
const CHECKED_WALK = [floor('walk.js'), '/v1/artists', 'json', '--checked'];

/** The highest peak RSS of `listRuns` runs of a floor alone, in MiB. */
function floorPeakRss(args, env) {
  return Math.max(...Array.from({ length: listRuns }, () => timed(args, env, { probed: true }).rssMb));
}

/** The list figures at two sizes: time and CPU beside the floor's, memory flat from one to the other. */
async function listingFigures(env) {
  const small = await startEmulator(['--scale', String(scales[0])]);
  const smallRss = new Map();
  let floorSmallRss = 0;
  let checkedSmallRss = 0;
  try {
    const smallEnv = { ...env, PDS_API_URL: small.url };
    const count = countArtists(smallEnv);
    for (const format of FORMATS) {
      const listing = sideBySide(
        listRuns,
        [pdsBin, 'artists', 'ls', '--all', ...format.flags],
        [floor('walk.js'), '/v1/artists', format.floor],
        smallEnv,
        { probed: true },
      );
      smallRss.set(format.name, listing.pds.rssMb);
      if (format.floor !== 'json') continue;
      floorSmallRss = listing.base.rssMb;
      checkedSmallRss = floorPeakRss(CHECKED_WALK, smallEnv);
      row(`pds artists ls --all --json, ${count} artists, ms`, 'ms', listing.pds.ms, listing.base.ms, null);
      row(`pds artists ls --all --json, ${count} artists, peak RSS`, 'MiB', listing.pds.rssMb, undefined, null);
    }
    // jq holds the whole array (the plain list streams), and its WebAssembly is loaded for this flag only.
    const jq = sideBySide(
      listRuns,
      [pdsBin, 'artists', 'ls', '--all', '--jq', '.[].name'],
      [pdsBin, 'artists', 'ls', '--all', '--json'],
      smallEnv,
      { probed: true },
    );
    row(`pds artists ls --all --jq '.[].name', ${count} artists, ms`, 'ms', jq.pds.ms, jq.base.ms, null, '--json');
    row(`pds artists ls --all --jq '.[].name', ${count} artists, peak RSS`, 'MiB', jq.pds.rssMb, undefined, null);
  } finally {
    await small.stop();
  }
  const large = await startEmulator(['--scale', String(scales[1])]);
  try {
    const largeEnv = { ...env, PDS_API_URL: large.url };
    const count = countArtists(largeEnv);
    for (const format of FORMATS) {
      const listing = sideBySide(
        listRuns,
        [pdsBin, 'artists', 'ls', '--all', ...format.flags],
        [floor('walk.js'), '/v1/artists', format.floor],
        largeEnv,
        { probed: true },
      );
      row(
        `pds artists ls --all ${format.name}, ${count} artists, wall ms`,
        'ms',
        listing.pds.ms,
        listing.base.ms,
        ratioAtMost(1.1),
      );
      row(
        `pds artists ls --all ${format.name}, ${count} artists, CPU ms`,
        'ms',
        listing.pds.cpuMs,
        listing.base.cpuMs,
        ratioAtMost(1.2),
      );
      row(
        `pds artists ls --all ${format.name}, ${count} artists, peak RSS over the small run`,
        'MiB',
        listing.pds.rssMb - smallRss.get(format.name),
        undefined,
        atMost(10, 'MiB'),
      );
      if (format.floor !== 'json') continue;
      // The emulator's side: a page costs the same whatever the list's length.
      row(
        `emulator: a bare client walks ${count} artists, 8 pages at a time, ms`,
        'ms',
        listing.base.ms,
        undefined,
        atMost(1500, 'ms'),
      );
      // Beside a walk that does pds's per-page work too: what pds's layers cost beyond its checks.
      const checked = sideBySide(listRuns, [pdsBin, 'artists', 'ls', '--all', '--json'], CHECKED_WALK, largeEnv, {
        probed: true,
      });
      row(
        `pds artists ls --all --json, ${count} artists, wall ms, beside a walk that checks as pds does`,
        'ms',
        checked.pds.ms,
        checked.base.ms,
        null,
        'checked walk',
      );
      row(
        `pds artists ls --all --json, ${count} artists, CPU ms, beside a walk that checks as pds does`,
        'ms',
        checked.pds.cpuMs,
        checked.base.cpuMs,
        null,
        'checked walk',
      );
      row(
        `bare walk of ${count} artists, peak RSS over the small run`,
        'MiB',
        listing.base.rssMb - floorSmallRss,
        undefined,
        null,
      );
      row(
        `checked walk of ${count} artists, peak RSS over the small run`,
        'MiB',
        checked.base.rssMb - checkedSmallRss,
        undefined,
        null,
      );
    }
  } finally {
    await large.stop();
  }
}

/** A PDF of `mb` MiB: a valid header, filler, and the trailer the staging check looks for. */
function pdfOf(mb) {
  const file = join(work, `big-${mb}.pdf`);
  const fd = openSync(file, 'w');
  writeSync(fd, '%PDF-1.4\n');
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < mb - 1; i++) writeSync(fd, chunk);
  writeSync(fd, Buffer.alloc(1024 * 1024 - 64, 0x20));
  writeSync(fd, '\n%%EOF\n');
  closeSync(fd);
  return file;
}

async function uploadFigures(env) {
  const emulator = await startEmulator();
  try {
    const mb = quick ? 5 : 50;
    const file = pdfOf(mb);
    // The service's flow: mint, a PUT streamed from disk to the storage host, complete.
    const samples = Array.from({ length: listRuns }, () =>
      timed([pdsBin, 'upload', 'statement', file], { ...env, PDS_API_URL: emulator.url }, { probed: true }),
    );
    row(
      `pds upload statement (${mb} MB PDF, signed URL), peak RSS`,
      'MiB',
      Math.max(...samples.map((s) => s.rssMb)),
      undefined,
      atMost(80, 'MiB'),
    );
    // The seed's multipart request, against a service without signed-URL uploads.
    const seed = await startEmulator(['--flavor', 'seed']);
    try {
      const multipart = Array.from({ length: listRuns }, () =>
        timed([pdsBin, 'upload', 'statement', file], { ...env, PDS_API_URL: seed.url }, { probed: true }),
      );
      row(
        `pds upload statement (${mb} MB PDF, multipart fallback), peak RSS`,
        'MiB',
        Math.max(...multipart.map((s) => s.rssMb)),
        undefined,
        atMost(90, 'MiB'),
      );
    } finally {
      await seed.stop();
    }
  } finally {
    await emulator.stop();
  }
  // Statements against a service that takes 100 ms per request, one at a time and four at a time.
  const slow = await startEmulator(['--latency', '100']);
  try {
    // Files of distinct names: uploads of one name go one after the other (--skip-existing's rule).
    const sample = readFileSync(join(root, 'test', 'fixtures', 'sample.pdf'));
    const files = Array.from({ length: quick ? 4 : 20 }, (_, i) => {
      const file = join(work, `statement-${i + 1}.pdf`);
      writeFileSync(file, sample);
      return file;
    });
    const slowEnv = { ...env, PDS_API_URL: slow.url };
    const four = sideBySide(
      listRuns,
      [pdsBin, 'upload', 'statement', ...files, '--concurrency', '4'],
      [pdsBin, 'upload', 'statement', ...files, '--concurrency', '1'],
      slowEnv,
    );
    const faster = { text: 'faster than --concurrency 1', check: (_value, ratio) => ratio < 1 };
    row(
      `pds upload statement x${files.length}, --latency 100, --concurrency 4, ms`,
      'ms',
      four.pds.ms,
      four.base.ms,
      faster,
      '--concurrency 1',
    );
  } finally {
    await slow.stop();
  }
}

const env = { PDS_TOKEN: 'demo-org-token', PDS_PROJECT: '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7', PDS_CONFIG_DIR: work };
process.stderr.write(
  `pds bench on node ${process.version}${quick ? ' (BENCH_QUICK: a smoke run, not figures)' : ''}\n`,
);
/** The parts of the bench, in the order they run; `npm run bench -- emulator rollup` runs two. */
const PARTS = {
  startup: async () => {
    const emulator = await startEmulator();
    try {
      startupFigures({ ...env, PDS_API_URL: emulator.url });
    } finally {
      await emulator.stop();
    }
  },
  lists: () => listingFigures(env),
  uploads: () => uploadFigures(env),
  emulator: () => emulatorFigures({ quick, row, atMost }),
  rollup: () => rollupFigures({ quick, env, sideBySide, timed, row, ratioAtMost, atMost }),
  files: () => fileFigures({ quick, env, timed, row }),
};
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !Object.hasOwn(PARTS, name));
if (unknown.length > 0) {
  process.stderr.write(`unknown part ${unknown.join(', ')}: the parts are ${Object.keys(PARTS).join(', ')}\n`);
  rmSync(work, { recursive: true, force: true });
  process.exit(2);
}
try {
  for (const [name, part] of Object.entries(PARTS)) if (chosen.length === 0 || chosen.includes(name)) await part();
} finally {
  rmSync(work, { recursive: true, force: true });
}
printTable();
// A partial run would replace the whole table of results with its few rows.
if (chosen.length === 0) writeResults();
