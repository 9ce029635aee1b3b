// Field names are the service's text as much as values are: a record whose keys carry escape
// sequences (`ESC ] 0 ; … BEL` retitles the window, `ESC [ 2 J` clears it), a carriage return and
// line feed (a forged line of pds's own), or a bidi override must reach a terminal escaped, in
// every `get` view (its labels, nested keys, include rows and their headers, the --verbose
// plumbing) and in every format a terminal is given. The records come from the replay of the
// deployed service with hostile keys added to each answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { example, type ReplayServer, startReplayServer } from '../helpers/replay-server.js';

const TITLE = '\u001b]0;PWNED\u0007\u001b[2J';
const FORGED = 'line\r\nFORGED  yes';
const BIDI = '\u202egnp.exe';

/** The keys a hostile service adds to a record: top level, nested, plumbing-like, a list of rows. */
function hostile(record: Record<string, unknown>): Record<string, unknown> {
  return {
    ...record,
    [TITLE]: 'retitled',
    [`x_${TITLE}`]: 'an experiment',
    nested_meta: { [FORGED]: 1, [TITLE]: { [BIDI]: 2 } },
    hostile_rows: [{ name: 'row', [TITLE]: 'cell', [FORGED]: 'forged' }],
  };
}

/** A contract's extractions get hostile keys too: in a known include's rows and as an include of their own. */
function hostileContract(contract: Record<string, unknown>): Record<string, unknown> {
  const extractions = (contract.extractions ?? {}) as Record<string, Record<string, unknown>[]>;
  const royalties = (extractions.royalties ?? []).map((row) => ({ ...row, [TITLE]: 'in a royalty', [FORGED]: 2 }));
  return hostile({
    ...contract,
    extractions: { ...extractions, royalties, [TITLE]: [{ [FORGED]: 'an include nobody knows', [BIDI]: 'x' }] },
  });
}

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer();
  replay.alter = (path, data) => {
    if (!data || typeof data !== 'object' || Array.isArray(data) || 'items' in data) return data;
    return path.startsWith('/v1/contracts/') ? hostileContract(data) : hostile(data);
  };
});
afterAll(async () => {
  await replay?.close();
});

const firstId = (name: string): string => {
  const data = example(name).data;
  return String((Array.isArray(data) ? data : data.items)[0].id);
};

const GETS: [string, () => string[]][] = [
  ['projects', () => ['projects', 'get', example('projects.get').data.id]],
  ['contracts', () => ['contracts', 'get', '61001', '--include', 'royalties,splits,languages', '--score']],
  ['statements', () => ['statements', 'get', '72001', '--detailed']],
  ['entities', () => ['entities', 'get', String(example('entities.get').data.id)]],
  ['relations', () => ['relations', 'get', firstId('relations.list')]],
  ['artists', () => ['artists', 'get', firstId('artists.list.merged'), '--merged']],
  ['writers', () => ['writers', 'get', String(example('writers.get').data.id)]],
  ['recordings', () => ['recordings', 'get', '7701', '--products']],
  ['compositions', () => ['compositions', 'get', firstId('compositions.list')]],
];

const FORMS: [string, string[]][] = [
  ['the view', []],
  ['the view with --verbose', ['--verbose']],
  ['TSV', ['--format', 'tsv']],
  ['CSV', ['--format', 'csv']],
  ['YAML', ['--format', 'yaml']],
  ['JSON', ['--json']],
];

function expectInert(output: string, where: string, csv = false): void {
  // CSV ends its rows with CR LF (RFC 4180); any other carriage return is the service's.
  const text = csv ? output.replaceAll('\r\n', '\n') : output;
  // Nothing that acts on a terminal: no escape, no bell, no carriage return, no bidi override.
  expect(text, where).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  // No line pds did not write: the forged one stays inside its own.
  expect(text, where).not.toMatch(/^FORGED/m);
}

describe.each(GETS)('%s get with hostile field names and nested keys', (resource, args) => {
  it.each(FORMS)('%s on a terminal: every name escaped, nothing acts', async (_form, flags) => {
    const run = await runCli(replay.url, [...args(), ...flags], {
      tty: true,
      columns: 100,
      project: example('projects.get').data.id,
      token: 'replay-token',
      env: { NO_COLOR: '1', PDS_PAGER: '' },
    });
    const where = `${resource} ${flags.join(' ')}`;
    expect(run.code, `${where}: ${run.stderr}`).toBe(0);
    expectInert(run.stdout, where, flags.includes('csv'));
    expectInert(run.stderr, `${where} (stderr)`);
    if (flags.length === 0 || flags[0] === '--verbose') {
      // The view shows the unknown field under its name, escaped, and the nested keys' lines.
      expect(run.stdout, where).toContain('\\x1b]0;PWNED\\x07\\x1b[2J');
      expect(run.stdout, where).toContain('\\r\\nFORGED');
    }
    // The service's experiment (an `x_` field) is plumbing: only with --verbose.
    if (flags.length === 0) expect(run.stdout, where).not.toContain('an experiment');
    if (flags[0] === '--verbose') expect(run.stdout, where).toContain('an experiment');
  });
});
