// --format through the commands that print data: the same records and keys as --json, in each format.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { runCli } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { parseCsv } from '../helpers/csv.js';
import { listFields } from '../../src/commands/catalog/views.js';

const emulator = sharedEmulator({ flavor: 'current' });
const project = () => emulator.state.data[DEMO_PROJECT_ID] as NonNullable<(typeof emulator.state.data)[string]>;

describe('lists in every format', () => {
  it('contracts ls: csv, ndjson and yaml hold what --json holds', async () => {
    const json = await runCli(emulator, ['contracts', 'ls', '--all', '--json']);
    const records = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(records.length).toBe(project().contracts.length);

    const ndjson = await runCli(emulator, ['contracts', 'ls', '--all', '--format', 'ndjson']);
    expect(
      ndjson.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toEqual(records);
    expect(ndjson.stderr).toBe('');

    const yaml = await runCli(emulator, ['contracts', 'ls', '--all', '--format', 'yaml']);
    expect(parseYaml(yaml.stdout)).toEqual(records);

    const csv = await runCli(emulator, ['contracts', 'ls', '--all', '--format', 'csv']);
    expect(csv.stdout.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(csv.stdout);
    // Every documented field of a contract in its order, then the others the records hold.
    expect(header).toEqual([...new Set([...listFields('contracts'), ...records.flatMap((r) => Object.keys(r))])]);
    expect(rows.map((row) => row[0])).toEqual(records.map((r) => String(r.id)));
    // A list of scalars is one cell of its items joined with '; ' (a contract's tags).
    const tags = (header as string[]).indexOf('tags');
    expect(tags).toBeGreaterThanOrEqual(0);
    expect(rows.map((row) => row[tags])).toEqual(records.map((r) => (r.tags as string[]).join('; ')));
  });

  it('--fields and --jq mean the same in csv as in json', async () => {
    const csv = await runCli(emulator, [
      'contracts',
      'ls',
      '--format',
      'csv',
      '--fields',
      'name,id',
      '--per-page',
      '2',
    ]);
    const json = JSON.parse(
      (await runCli(emulator, ['contracts', 'ls', '--json', '--fields', 'name,id', '--per-page', '2'])).stdout,
    ) as { name: string; id: string }[];
    expect(parseCsv(csv.stdout)).toEqual([['name', 'id'], ...json.map((r) => [r.name, String(r.id)])]);
    const jq = await runCli(emulator, ['contracts', 'ls', '--format', 'csv', '--per-page', '2', '--jq', 'map({id})']);
    expect(parseCsv(jq.stdout)).toEqual([['id'], ...json.map((r) => [String(r.id)])]);
  });

  it('PDS_FORMAT sets the format; --json wins over it; a bad one is exit 2 and sends nothing', async () => {
    const env = { PDS_FORMAT: 'ndjson' };
    const viaEnv = await runCli(emulator, ['projects', 'ls'], { env });
    expect(
      viaEnv.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).id),
    ).toContain(DEMO_PROJECT_ID);
    expect(JSON.parse((await runCli(emulator, ['projects', 'ls', '--json'], { env })).stdout)).toBeInstanceOf(Array);
    const before = emulator.requests.length;
    expect(await runCli(emulator, ['projects', 'ls'], { env: { PDS_FORMAT: 'xml' } })).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: invalid PDS_FORMAT 'xml': expected one of table, tsv, csv, json, ndjson, yaml, xlsx, parquet\n",
    });
    const bad = await runCli(emulator, ['projects', 'ls', '--format', 'xml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "error: invalid --format 'xml': expected one of table, tsv, csv, json, ndjson, yaml, xlsx, parquet\n",
    );
    const both = await runCli(emulator, ['projects', 'ls', '--json', '--format', 'csv']);
    // --json asked for JSON errors too.
    expect(both).toEqual({
      code: 2,
      stdout: '',
      stderr: '{"error":{"status":null,"message":"--json and --format csv contradict each other: use one"}}\n',
    });
    expect(emulator.requests.length).toBe(before);
  });
});

describe('commands that print other data', () => {
  it('sandbox exec: a record a command in ndjson and csv, as --json has them', async () => {
    const json = JSON.parse(
      (await runCli(emulator, ['sandbox', 'exec', 'echo one', 'exit 3', '--json'])).stdout,
    ) as object[];
    const ndjson = await runCli(emulator, ['sandbox', 'exec', 'echo one', 'exit 3', '--format', 'ndjson']);
    expect(ndjson.code).toBe(3);
    expect(
      ndjson.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toEqual(json);
    const csv = await runCli(emulator, ['sandbox', 'exec', 'echo one', '--format', 'csv']);
    expect(csv.stdout).toBe('command,stdout,stderr,exitCode\r\necho one,"one\n",,0\r\n');
  });

  it('downloads: a record a file in csv', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pds-formats-'));
    const id = project().contracts[0]?.id as string;
    const result = await runCli(emulator, ['contracts', 'download', id, '-o', `${dir}/`, '--format', 'csv']);
    expect(result.code).toBe(0);
    const [header, row] = parseCsv(result.stdout);
    expect(header).toEqual(['id', 'file', 'bytes', 'up_to_date']);
    expect(row?.[0]).toBe(id);
    expect(row?.[3]).toBe('false');
    const toStdout = await runCli(emulator, ['contracts', 'download', id, '-o', '-', '--format', 'yaml']);
    expect(toStdout).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: -o - writes the file to stdout, where --format yaml would go: use one of them\n',
    });
  });
});
