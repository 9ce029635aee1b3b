// What a storage host may send as a statement's lines export, and what pds makes of it: ragged
// rows, headers it cannot trust, keys that are an object's own names, encoded, trickling and endless
// bodies, exports whose columns differ. The emulator serves each (its storage faults); the sums
// expected are added here from the texts served, in cents.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { isProcessed } from '../../src/emulator/deployed/statements.js';
import type { ExportFault } from '../../src/emulator/storage.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { connectMcp, type ToolResult } from '../helpers/mcp.js';

const emulator = sharedEmulator({ flavor: 'deployed', processingMs: 20 });
const pds = (args: string[]) => runCli(emulator, args, { env: { NO_COLOR: '1', PDS_PAGER: '' } });
const processed = () => emulator.state.data[DEMO_PROJECT_ID]!.statements.filter(isProcessed);
/** Two processed statements of the same currency, whose exports the tests replace. */
const pair = (): [number, number] => {
  const [first, ...rest] = processed();
  const second = rest.find((s) => s.currency_royalty === first!.currency_royalty)!;
  return [first!.id, second.id];
};
const serve = (faults: Record<number, ExportFault>) => {
  emulator.storage.faults.exports = new Map(Object.entries(faults).map(([id, fault]) => [Number(id), fault]));
};
afterEach(() => {
  delete emulator.storage.faults.exports;
});

const groups = (stdout: string) =>
  (JSON.parse(stdout) as Record<string, unknown>[]).map((g) => [g.territory, g.lines, g.licensor_revenue]);

describe('rows and headers pds cannot read whole', () => {
  it('a short and a long row are named by line and left out; the rest is summed; exit 8', async () => {
    const [a, b] = pair();
    serve({
      [a]: {
        text: 'territory,title,licensor_revenue\nGB,"One, two",1.50\nGB,3.00\n"FR","multi\nline",2.25\nFR,x,1.00,9\nGB,y,0.75\n',
      },
      [b]: { text: 'territory,title,licensor_revenue\r\nFR,z,10.00\r\n' },
    });
    const result = await pds(['statements', 'lines', String(a), String(b), '--by', 'territory', '--json']);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain(`statement ${a}, line 3: a row of 2 cells where the header has 3; left out`);
    expect(result.stderr).toContain(`statement ${a}, line 6: a row of 4 cells where the header has 3; left out`);
    expect(groups(result.stdout).sort()).toEqual([
      ['FR', 2, '12.25'],
      ['GB', 2, '2.25'],
    ]);
  });

  it('a CRLF inside quotes cut where pds reads the export in slices does not move the lines named after it', async () => {
    const [a] = pair();
    // pds reads an export 16 Ki characters at a time: the CR of "x\r\ny" is the last of the first slice.
    const head = 'territory,title,licensor_revenue\n';
    const filler = 'GB,t,1.00\n'.repeat(1000);
    const pad = 'GB,"'.concat(
      'p'.repeat(16 * 1024 - 1 - head.length - filler.length - 'GB,"'.length - '",1.00\nFR,"x'.length),
      '",1.00\n',
    );
    const text = `${head}${filler}${pad}FR,"x\r\ny",2.00\nFR,short\nFR,z,NaN\n`;
    expect(text.indexOf('\r')).toBe(16 * 1024 - 1);
    serve({ [a]: { text } });
    const result = await pds(['statements', 'lines', String(a), '--by', 'territory', '--json']);
    expect(result.code).toBe(8);
    // Header line 1, 1,000 filler rows (2 to 1001), the padded row 1002, "x\r\ny" on 1003 and 1004.
    expect(JSON.parse(result.stderr.trim().split('\n').pop()!).error.details).toEqual([
      `statement ${a} line 1006: licensor_revenue "NaN" is not an amount`,
      `statement ${a}, line 1005: a row of 2 cells where the header has 3; left out`,
    ]);
    expect(groups(result.stdout).sort()).toEqual([
      ['FR', 2, '2.00'],
      ['GB', 1001, '1001.00'],
    ]);
  });

  it.each([
    [
      'a repeated column',
      'territory,licensor_revenue,Licensor_Revenue',
      "repeats the column 'Licensor_Revenue' (columns 2 and 3)",
    ],
    ['an empty column name', 'territory,,licensor_revenue', 'has an empty column name (column 2)'],
    [
      'a zero-width twin',
      'territory,licensor_revenue,licensor\u200b_revenue',
      "has a column name with invisible characters ('licensor\\u{200b}_revenue', column 3)",
    ],
  ])('%s in a header: that export is left out whole, named; exit 8', async (_, header, said) => {
    const [a, b] = pair();
    serve({
      [a]: { text: `${header}\nGB,100,200\nGB,3,4\n` },
      [b]: { text: 'territory,licensor_revenue\nGB,7.00\n' },
    });
    const result = await pds(['statements', 'lines', String(a), String(b), '--by', 'territory', '--json']);
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stderr).error).toEqual({
      status: null,
      message: 'the answer is not whole',
      details: [`statement ${a}: its export's header ${said}; its lines were left out`],
    });
    expect(groups(result.stdout)).toEqual([['GB', 1, '7.00']]);
    const check = await pds(['statements', 'check', String(a)]);
    expect(check.stdout).toContain(`statement ${a} is not checkable (its export was not read whole`);
  });

  it('__proto__ and constructor are columns like any other, in flat JSON', async () => {
    const [a, b] = pair();
    serve({
      [a]: { text: 'territory,__proto__,constructor\nGB,1.50,2\n' },
      [b]: { text: 'territory,__proto__,constructor\nFR,2.50,3\n' },
    });
    const result = await pds(['statements', 'lines', String(a), String(b), '--format', 'ndjson']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { statement_id: String(a), territory: 'GB', ['__proto__']: '1.50', constructor: '2' },
      { statement_id: String(b), territory: 'FR', ['__proto__']: '2.50', constructor: '3' },
    ]);
  });
});

describe('flat lines of exports whose columns differ', () => {
  it("one CSV under the union of the headers, in the statements' order, whichever export answers first", async () => {
    const [a, b] = pair();
    serve({
      [a]: { text: 'territory,licensor_revenue\nGB,1.00\nFR,2.00\n', trickleMs: 5 },
      [b]: { text: 'Territory,bonus_revenue,licensor_revenue\nDE,500.00,3.00\n' },
    });
    const result = await pds(['statements', 'lines', String(a), String(b)]);
    expect({ ...result, stdout: result.stdout.split('\r\n') }).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'statement_id,territory,licensor_revenue,bonus_revenue',
        `${a},GB,1.00,`,
        `${a},FR,2.00,`,
        `${b},DE,3.00,500.00`,
        '',
      ],
    });
  });
});

describe('export bodies', () => {
  const text = `territory,licensor_revenue\n${'GB,1.25\n'.repeat(4000)}FR,0.50\n`;

  it.each(['gzip', 'deflate', 'br'] as const)(
    'an export sent with Content-Encoding %s is decoded',
    async (encoding) => {
      const [a] = pair();
      serve({ [a]: { text, encoding } });
      const result = await pds(['statements', 'lines', String(a), '--by', 'territory', '--json']);
      expect(result.code).toBe(0);
      expect(groups(result.stdout).sort()).toEqual([
        ['FR', 1, '0.50'],
        ['GB', 4000, '5000.00'],
      ]);
    },
  );

  const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

  it.each(['gzip', 'deflate', 'br'] as const)(
    'an export whose %s body is cut short says so, with the bytes that arrived; a corrupt one does not decode',
    async (encoding) => {
      const [a] = pair();
      const half = Math.floor(encoders[encoding](Buffer.from(text)).length / 2);
      serve({ [a]: { text, encoding, cutAt: half } });
      const cut = await pds(['statements', 'lines', String(a), '--by', 'territory', '--json']);
      expect(cut).toEqual({
        code: 1,
        stdout: '',
        stderr: `{"error":{"status":null,"message":"the storage host's ${encoding} body was cut short (truncated: ${half} bytes received, the stream ended early); pds stopped reading"}}\n`,
      });
      // check names the statement it could not check, and why.
      const check = await pds(['statements', 'check', String(a)]);
      expect(check.code).toBe(8);
      expect(check.stdout + check.stderr).toContain(
        `statement ${a} is not checkable (its lines could not be read: the storage host's ${encoding} body was cut short (truncated: ${half} bytes received`,
      );
      // A host that announced the whole length and closed the connection early: the bytes as sent are counted.
      const total = encoders[encoding](Buffer.from(text)).length;
      serve({ [a]: { text, encoding, cutAt: half, announced: true } });
      const dropped = await pds(['statements', 'lines', String(a), '--by', 'territory', '--json']);
      expect(dropped.code).toBe(1);
      expect(JSON.parse(dropped.stderr).error.message).toBe(
        `the download was cut short: ${half} of ${total} bytes arrived`,
      );
      serve({ [a]: { text, encoding, corruptAt: 0 } });
      const corrupt = await pds(['statements', 'lines', String(a), '--by', 'territory', '--json']);
      const code = encoding === 'br' ? 'ERR__ERROR_FORMAT_CL_SPACE' : 'Z_DATA_ERROR';
      expect(corrupt).toEqual({
        code: 1,
        stdout: '',
        stderr: `{"error":{"status":null,"message":"the storage host's ${encoding} body does not decode (${code}); pds stopped reading"}}\n`,
      });
    },
  );

  it('--max-size counts the decoded bytes of an encoded export', async () => {
    const [a] = pair();
    serve({ [a]: { text, encoding: 'gzip' } });
    const result = await pds(['statements', 'lines', String(a), '--by', 'territory', '--max-size', '16K']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the download is larger than the --max-size limit of 16 KiB (more arrived)');
  });

  it('an endless export stops at --max-size', async () => {
    const [a] = pair();
    serve({ [a]: { text: 'territory,licensor_revenue\nGB,1.00\n', endless: true } });
    const result = await pds(['statements', 'lines', String(a), '--by', 'territory', '--max-size', '2M']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the download is larger than the --max-size limit of 2');
  });

  it('a trickling export (a byte every 50 ms) is stalled at --timeout', async () => {
    const [a] = pair();
    serve({ [a]: { text, trickleMs: 50 } });
    const result = await pds(['statements', 'lines', String(a), '--by', 'territory', '--timeout', '0.5']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: the download stalled: less than 1 KiB arrived in 0.5 s\n  raise the limit with --timeout <seconds>\n',
    });
  });
});

describe('the MCP tools, which take invisible characters out of what they answer', () => {
  it('refuse an export whose column has a zero-width twin, naming it, rather than show two licensor_revenue; the roll-up names it', {
    timeout: 30_000,
  }, async () => {
    const [a, b] = pair();
    serve({
      [a]: { text: 'territory,licensor_revenue,licensor\u200b_revenue\nGB,1.00,900.00\n' },
      [b]: { text: 'territory,licensor_revenue\nGB,2.00\n' },
    });
    const mcp = await connectMcp(emulator);
    try {
      const said = `statement ${a}: its export's header has a column name with invisible characters ('licensor\\u{200b}_revenue', column 3); its lines were left out`;
      const lines = (await mcp.client.callTool({ name: 'statement_lines', arguments: { id: a } })) as ToolResult;
      expect(lines.isError).toBe(true);
      expect(lines.content.map((c) => c.text).join('\n')).toContain(said);
      // The roll-up names what it left out (as an error, or beside the groups it read, as incomplete).
      const rollup = (await mcp.client.callTool({
        name: 'statements_lines_rollup',
        arguments: { ids: [a, b], by: ['territory'] },
      })) as ToolResult;
      expect(rollup.content.map((c) => c.text).join('\n')).toContain(said);
      expect(
        rollup.isError === true ||
          ((rollup.structuredContent?.incomplete as string[] | undefined) ?? []).includes(said),
      ).toBe(true);
      // A column only the export left out may have: named as such (by its input's name), never an empty group.
      const unknown = (await mcp.client.callTool({
        name: 'statements_lines_rollup',
        arguments: { ids: [a, b], by: ['teritory'] },
      })) as ToolResult;
      expect(unknown.isError).toBe(true);
      const text = unknown.content.map((c) => c.text).join('\n');
      expect(text).toContain(said);
      expect(text).toContain(
        `the column 'teritory' (by) is in none of the 1 export read; the export left out (statement ${a}) may have it`,
      );
    } finally {
      await mcp.close();
    }
  });
});
