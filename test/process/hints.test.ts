// Every hint and footer a command prints names only flags that command takes (issue 37): the
// flags named on stderr are collected from each command's output against the default emulator and
// checked against the verb's own definition and the global options. And the smaller items of
// issue 37: no stack frames under --verbose but for an internal error, `emulator start --quiet`,
// --merged's help.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { GLOBAL_FLAGS } from '../../src/lib/verbs/global-flags.js';
import { type AnyVerb, type FlagSpec, flagName } from '../../src/lib/verbs/verb.js';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv, startPds } from '../helpers/process.js';

/** The verb `pds <words…>` runs, found in the command table. */
function verbOf(words: readonly string[]): AnyVerb {
  const [first, second] = words;
  for (const entry of COMMANDS) {
    if (entry.name !== first) continue;
    if (!('verbs' in entry)) return entry;
    const found = entry.verbs.find((verb) => verb.name === second) ?? entry.ownVerb;
    if (found) return found;
  }
  throw new Error(`no verb for pds ${words.join(' ')}`);
}

const names = (flags: Record<string, FlagSpec>): string[] =>
  Object.entries(flags).flatMap(([key, spec]) => {
    const name = flagName(key, spec);
    return [name, name.replace(/^--/, '--no-')];
  });

/** Each command: the words naming its verb, and the arguments it is run with. */
const RUNS: [verb: string[], args: string[]][] = [
  ...['contracts', 'statements', 'entities', 'relations', 'artists', 'writers', 'recordings', 'compositions'].map(
    (resource): [string[], string[]] => [[resource, 'ls'], []],
  ),
  [['contracts', 'get'], ['20001']],
  [['statements', 'status'], ['40001']],
  [['projects', 'ls'], []],
  [['search'], ['nova']],
  [['knowledge', 'search'], ['royalty']],
  [['tags', 'ls'], []],
  [['mcp', 'tools'], []],
  [['artists', 'get'], ['3999999']],
  [['statements', 'lines'], ['40099999']],
];

let emulator: Emulator;
beforeAll(async () => {
  emulator = await testEmulator({ flavor: 'deployed' });
});
afterAll(() => emulator?.close());

describe('hints and footers name only flags their command takes', () => {
  it.each(RUNS)('pds %j %j', async (words, args) => {
    const verb = verbOf(words);
    const takes = new Set([...names(verb.flags ?? {}), ...names(GLOBAL_FLAGS as Record<string, FlagSpec>)]);
    const run = await runPds([...words, ...args, '--format', 'table'], { env: signedInEnv(emulator.url) });
    const named = [...run.stderr.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((match) => match[0]);
    expect(
      named.filter((flag) => !takes.has(flag)),
      run.stderr,
    ).toEqual([]);
  });

  it('knowledge search ends with a count, not a page it cannot turn', async () => {
    const run = await runPds(['knowledge', 'search', 'royalty', '--format', 'table'], {
      env: signedInEnv(emulator.url),
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^\d+ knowledge nodes?\n$/m);
    expect(run.stderr).not.toContain('--page');
  });
});

describe('smaller items', () => {
  it('--verbose shows the requests of an ordinary 404, and no stack frames (PDS_DEBUG=1 adds them)', async () => {
    const run = await runPds(['artists', 'get', '3999999', '--verbose'], { env: signedInEnv(emulator.url) });
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/^> GET /m);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    const debug = await runPds(['artists', 'get', '3999999', '--verbose'], {
      env: signedInEnv(emulator.url, { PDS_DEBUG: '1' }),
    });
    expect(debug.stderr).toMatch(/^\s+at /m);
  });

  it('emulator start --quiet prints only the line a script reads its address from', async () => {
    const started = startPds(['emulator', 'start', '--quiet', '--port', '0'], { env: {} });
    try {
      await started.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\n/, 15_000);
      // Time for a banner to follow, were there one.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(started.stdout()).toMatch(/^pds emulator listening on http:\/\/127\.0\.0\.1:\d+\n$/);
      expect(started.stderr()).toBe('');
    } finally {
      started.child.kill('SIGINT');
      await started.exited;
    }
  });

  it("--merged's help says what it adds", async () => {
    const help = await runPds(['artists', 'ls', '--help'], { env: {} });
    expect(help.stdout).toMatch(/--merged\s+each record's merged duplicates: a MERGED count column/);
  });
});

describe('what pds checks of an id before any request, as the guide says', () => {
  it('a statement id that is not a whole number, or an id with a slash, exits 2 and sends nothing; other ids go to the service', async () => {
    emulator.requests.length = 0;
    const env = signedInEnv(emulator.url);
    expect(await runPds(['statements', 'get', '4000x'], { env })).toMatchObject({
      code: 2,
      stderr: "error: invalid statement id '4000x': statement ids are whole numbers\n",
    });
    expect((await runPds(['artists', 'get', 'a/b'], { env })).code).toBe(2);
    expect(emulator.requests).toEqual([]);
    // Another form's id may hold letters (the seed's art_00001): the service answers for it.
    expect((await runPds(['artists', 'get', '3000001x'], { env })).code).toBe(5);
    expect(emulator.requests.map((request) => request.path)).toContain('/v1/artists/3000001x');
  });
});
