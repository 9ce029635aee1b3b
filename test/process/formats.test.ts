// Every data format of --format through the built CLI (bin/pds.js → dist/), on a list, a record,
// `auth status` and `config list`: each output parses back to the values the emulator holds. The
// bundle loads some formats' libraries as chunks of their own (yaml), which only a run of the built
// CLI exercises: `--format yaml` once failed on every command there and nowhere else.
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { csvRecords } from '../helpers/csv.js';
import { freshConfigDir } from '../helpers/cli.js';
import { runPds, signedInEnv } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });
const FORMATS = ['tsv', 'csv', 'json', 'ndjson', 'yaml'] as const;
type DataFormat = (typeof FORMATS)[number];

/** A list's output in `format` as records of text: what each format lets a program read back. */
function listRecords(format: DataFormat, stdout: string): Record<string, unknown>[] {
  switch (format) {
    case 'json':
      return JSON.parse(stdout) as Record<string, unknown>[];
    case 'ndjson':
      return stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    case 'yaml':
      return parseYaml(stdout) as Record<string, unknown>[];
    case 'csv':
      return csvRecords(stdout);
    case 'tsv': {
      const [header = '', ...rows] = stdout.split('\n').filter(Boolean);
      const keys = header.split('\t').map((key) => key.toLowerCase());
      return rows.map((row) => Object.fromEntries(row.split('\t').map((cell, i) => [keys[i], cell])));
    }
  }
}

/** One record's output in `format` as an object (TSV: `key<TAB>value` lines). */
function recordOf(format: DataFormat, stdout: string): Record<string, unknown> {
  if (format === 'tsv')
    return Object.fromEntries(
      stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t', 2)),
    );
  const records = listRecords(format, stdout);
  return format === 'json' || format === 'yaml'
    ? (records as unknown as Record<string, unknown>)
    : (records[0] as Record<string, unknown>);
}

const artists = () => emulator.state.data[DEMO_PROJECT_ID]?.artists ?? [];

describe('--format through the built CLI', () => {
  for (const format of FORMATS) {
    it(`${format}: a list, a record, auth status and config list parse back to the right values`, async () => {
      const env = signedInEnv(emulator.url);
      const list = await runPds(['artists', 'ls', '--per-page', '5', '--format', format], { env });
      expect(list.stderr).toBe('');
      expect(list.code).toBe(0);
      const expected = artists().slice(0, 5);
      expect(listRecords(format, list.stdout).map((record) => [String(record.id), record.name])).toEqual(
        expected.map((a) => [a.id, a.name]),
      );

      const first = expected[0] as { id: string; name: string };
      const record = await runPds(['artists', 'get', first.id, '--format', format], { env });
      expect(record.stderr).toBe('');
      expect(record.code).toBe(0);
      expect(recordOf(format, record.stdout)).toMatchObject({ id: first.id, name: first.name });

      const status = await runPds(['auth', 'status', '--format', format], { env });
      expect(status.stderr).toBe('');
      expect(status.code).toBe(0);
      const statusRecord = recordOf(format, status.stdout);
      expect(statusRecord.profile).toBe('default');
      // TSV is the human form piped (`api_url<TAB>URL, from PDS_API_URL`); the others are the data.
      expect(String(statusRecord.api_url).startsWith(emulator.url)).toBe(true);

      const dir = freshConfigDir();
      expect((await runPds(['config', 'set', 'timeout', '7'], { env: { PDS_CONFIG_DIR: dir } })).code).toBe(0);
      const config = await runPds(['config', 'list', '--format', format], { env: { PDS_CONFIG_DIR: dir } });
      expect(config.stderr).toBe('');
      expect(config.code).toBe(0);
      expect(recordOf(format, config.stdout)).toEqual({ timeout: '7' });
    });
  }
});
