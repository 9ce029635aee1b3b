// JSON numbers a double cannot hold, as raw numbers in a statement's financials (1e400, -1e400,
// 1e-400, 12345678901234567890123.45): JSON.parse reads them as Infinity, 0 or a rounded double,
// so pds reads an amount from the text the service wrote. The emulator answers in JSON it writes
// itself, which cannot hold such a number: a relay on loopback passes its answers on with each
// string "RAW:<number>" written as that bare number. Expected sums are added here in BigInt cents.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import { deployedStatement, isProcessed } from '../../src/emulator/deployed/statements.js';
import type { StatementRecord } from '../../src/emulator/store.js';
import { numberText, parseJson } from '../../src/lib/json-numbers.js';
import { readField } from '../../src/lib/money/amount.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';
import { connectMcp, type ToolResult } from '../helpers/mcp.js';

const emulator = sharedEmulator({ flavor: 'deployed', processingMs: 20 });
const data = () => emulator.state.data[DEMO_PROJECT_ID]!;
const processed = () => data().statements.filter(isProcessed);

/** What the relay saw pass: how many raw numbers it wrote into answers. */
let written = 0;
let relay: Server;
let relayUrl = '';
beforeAll(async () => {
  relay = createServer((req, res) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value;
    void fetch(`${emulator.url}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers }).then(async (answer) => {
      const body = (await answer.text()).replace(/"RAW:([-+.0-9eE]+)"/g, (_, number: string) => {
        written++;
        return number;
      });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => relay.close(() => resolve())));

const pds = (args: string[]) => runCli(relayUrl, args, { env: { NO_COLOR: '1', PDS_PAGER: '' } });
const given = new Set<StatementRecord>();
const give = (s: StatementRecord, financials: Record<string, unknown>) => {
  s.financials_given = financials;
  given.add(s);
};
afterEach(() => {
  for (const s of given) delete s.financials_given;
  given.clear();
  written = 0;
});
const cents = (s: StatementRecord, field: 'licensor_revenue' | 'licensee_revenue') =>
  BigInt(Math.round(Number((deployedStatement(data(), s).financials as Record<string, unknown>)[field]) * 100));
const money = (c: bigint) =>
  `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, '0')}`;
const lastError = (stderr: string) => JSON.parse(stderr.trim().split('\n').pop()!).error;

describe('numbers JSON.parse cannot read exactly', () => {
  it('keep the text written, beside the object that holds them; an amount is read from it', () => {
    const body = parseJson(
      '{"data":[{"id":1,"f":{"a":1e400,"b":-1e400,"c":1e-400,"d":12345678901234567890123.45,"e":0.1,"g":1.5e3}},' +
        '{"id":2,"t":"x\\"1e400","f":{"a":[2,1e-400],"a":7}}]}',
    ) as { data: { f: Record<string, unknown> }[] };
    const [one, two] = body.data;
    expect(['a', 'b', 'c', 'd', 'e', 'g'].map((key) => numberText(one!.f, key))).toEqual([
      '1e400',
      '-1e400',
      '1e-400',
      '12345678901234567890123.45',
      undefined,
      undefined,
    ]);
    const read = (key: string) => {
      const amount = readField(one!.f, key);
      return amount.kind === 'amount'
        ? amount.decimal
        : `${amount.kind} ${amount.kind === 'unreadable' ? amount.shown : ''}`;
    };
    expect(['a', 'b', 'c', 'd', 'e', 'g'].map(read)).toEqual([
      'unreadable 1e400',
      'unreadable -1e400',
      'unreadable 1e-400',
      '12345678901234567890123.45',
      '0.1',
      '1500',
    ]);
    // A key given twice is its last value (7, read exactly): the earlier array's 1e-400 is not kept for it.
    expect(two!.f.a).toBe(7);
    expect(numberText(two!.f, 'a')).toBeUndefined();
  });
});

describe('statements totals, check and the MCP roll-up', () => {
  it('totals name each statement whose raw number is past a double, add the exact one, and exit 8', async () => {
    const eur = processed().filter((s) => s.currency_royalty === 'EUR');
    const [huge, negative, tiny, exact] = eur;
    give(huge!, { licensor_revenue: 'RAW:1e400' });
    give(negative!, { licensor_revenue: 'RAW:-1e400' });
    give(tiny!, { licensor_revenue: 'RAW:1e-400' });
    give(exact!, { licensor_revenue: 'RAW:12345678901234567890123.45' });
    const others = eur.slice(4).reduce((n, s) => n + cents(s, 'licensor_revenue'), 0n);
    const result = await pds(['statements', 'totals', '--currency', 'EUR', '--json']);
    expect(written).toBe(4);
    expect(result.code).toBe(8);
    expect(JSON.parse(result.stdout)).toEqual([
      expect.objectContaining({
        currency: 'EUR',
        statements: eur.length,
        licensor_revenue: money(others + 1234567890123456789012345n),
        licensee_revenue: money(eur.reduce((n, s) => n + cents(s, 'licensee_revenue'), 0n)),
      }),
    ]);
    expect(lastError(result.stderr)).toEqual({
      status: null,
      message: 'the answer is not whole: 3 problems',
      details: [
        `statement ${huge!.id}: licensor_revenue 1e400 is not an amount`,
        `statement ${negative!.id}: licensor_revenue -1e400 is not an amount`,
        `statement ${tiny!.id}: licensor_revenue 1e-400 is not an amount`,
      ],
    });
  });

  it('check calls a statement with 1e-400 not checkable, naming it, never a zero that disagrees', async () => {
    const [s] = processed();
    give(s!, { licensor_revenue: 'RAW:1e-400' });
    const result = await pds(['statements', 'check', String(s!.id)]);
    expect(written).toBe(1);
    expect(result.code).toBe(8);
    expect(result.stdout + result.stderr).toContain(
      `statement ${s!.id} is not checkable (its financials' licensor_revenue 1e-400: not an amount)`,
    );
  });

  it('the MCP totals tool names them in incomplete', { timeout: 30_000 }, async () => {
    const eur = processed().filter((s) => s.currency_royalty === 'EUR');
    const [huge] = eur;
    give(huge!, { licensee_revenue: 'RAW:1e400' });
    const others = eur.slice(1).reduce((n, s) => n + cents(s, 'licensee_revenue'), 0n);
    const mcp = await connectMcp(emulator, [], { env: { PDS_API_URL: relayUrl } });
    try {
      const answer = (await mcp.client.callTool({
        name: 'statements_totals',
        arguments: { currency: 'EUR' },
      })) as ToolResult;
      expect(answer.structuredContent?.incomplete).toEqual([
        `statement ${huge!.id}: licensee_revenue 1e400 is not an amount`,
      ]);
      expect(answer.structuredContent?.items).toEqual([
        expect.objectContaining({ currency: 'EUR', statements: eur.length, licensee_revenue: money(others) }),
      ]);
    } finally {
      await mcp.close();
    }
  });
});
