// The built pds against servers of the suite's own that answer badly: an answer that breaks HTTP,
// a Retry-After that is no wait, error details that are objects, a field nested 10,000 deep, an id
// pds cannot represent exactly, field names that are Object.prototype's.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { runPds, signedInEnv } from '../helpers/process.js';
import {
  json,
  projects,
  sequence,
  startRogueServer,
  type Behaviour,
  type RogueServer,
} from '../helpers/rogue-server.js';

const servers: RogueServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function rogue(behaviour: Behaviour): Promise<RogueServer> {
  const server = await startRogueServer(behaviour);
  servers.push(server);
  return server;
}

/** Writes `raw` as the whole answer, past Node's own HTTP writer (which would refuse it). */
const raw =
  (text: string): Behaviour =>
  (req, res) => {
    req.resume();
    res.socket?.end(text);
  };

describe('an answer that breaks HTTP is said as such, once', () => {
  const cases: [string, string, string][] = [
    [
      'an escape character in a header value',
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Note: a\u001b[2Jb\r\nContent-Length: 11\r\n\r\n{"data":[]}',
      'HPE_INVALID_HEADER_TOKEN',
    ],
    [
      'bad chunking',
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{"data":[]}\r\n0\r\n\r\n',
      'HPE_INVALID_CHUNK_SIZE',
    ],
  ];
  it.each(cases)('%s: exit 1, no emulator hint, no retry, no stack under --verbose', async (_name, answer, code) => {
    const server = await rogue(raw(answer));
    const result = await runPds(['projects', 'ls'], { env: signedInEnv(server.url) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: the service at ${server.url} sent an invalid HTTP response (${code})\n`);
    expect(server.requests).toHaveLength(1);

    const verbose = await runPds(['projects', 'ls', '--verbose'], { env: signedInEnv(server.url) });
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toContain(`error: the service at ${server.url} sent an invalid HTTP response (${code})\n`);
    expect(verbose.stderr).not.toMatch(/^\s+at /m);
    expect(verbose.stderr).not.toContain('emulator');
    expect(server.requests).toHaveLength(2);
  });
});

describe('a Retry-After that is no wait is ignored for X-RateLimit-Reset; the wait said is the wait taken', () => {
  it.each([['-5'], ['soon'], ['-1.5']])(
    'Retry-After %j with X-RateLimit-Reset 2: waits 2 s, says 2 s',
    async (value) => {
      const limited = json(
        429,
        { error: { message: 'slow down' } },
        { 'retry-after': value, 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' },
      );
      const server = await rogue(sequence(limited, projects));
      const result = await runPds(['projects', 'ls', '--json'], { env: signedInEnv(server.url) });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe(
        'warning: rate limited (limit 60, remaining 0, reset in 2 s): retrying in 2 s (Ctrl-C to stop)\n',
      );
      expect(server.requests).toHaveLength(2);
      // A lower bound only: the wait cannot be shorter than what was said.
      expect(result.ms).toBeGreaterThanOrEqual(2_000);
    },
  );

  it('a wait of a fraction of a second is said in the whole seconds it is rounded up to', async () => {
    const server = await rogue(sequence(json(503, { error: { message: 'busy' } }, { 'retry-after': '0.3' }), projects));
    const result = await runPds(['projects', 'ls', '--json'], { env: signedInEnv(server.url) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('warning: busy: retrying in 1 s (Ctrl-C to stop)\n');
    expect(result.ms).toBeGreaterThanOrEqual(1_000);
  });
});

describe('error details that are objects print as field: message', () => {
  const body = {
    error: {
      message: 'validation failed',
      details: [
        { field: 'name', message: 'is taken' },
        { field: 'isrc', message: 'bad \u001b[31mred' },
        { code: 'E42' },
        'plain words',
      ],
    },
  };

  it('on stderr, escaped', async () => {
    const server = await rogue(json(422, body));
    const result = await runPds(['projects', 'ls'], { env: signedInEnv(server.url) });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: validation failed\n  name: is taken\n  isrc: bad \\x1b[31mred\n  {"code":"E42"}\n  plain words\n',
    );
  });

  it('in the --json error', async () => {
    const server = await rogue(json(422, body));
    const result = await runPds(['projects', 'ls', '--json'], { env: signedInEnv(server.url) });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        status: 422,
        message: 'validation failed',
        details: ['name: is taken', 'isrc: bad \u001b[31mred', '{"code":"E42"}', 'plain words'],
      },
    });
  });
});

describe('an unused field nested 10,000 deep breaks no format', () => {
  const DEEP = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
  const page = `{"data":[{"id":1,"name":"Deep Artist","project_id":"${DEMO_PROJECT}","created_at":"2024-01-01T00:00:00Z","deep":${DEEP}}],"meta":{"total":1,"page":1,"perPage":50}}`;
  const artists: Behaviour = (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(page);
  };
  const ls = async (...args: string[]) => {
    const server = await rogue(artists);
    return runPds(['artists', 'ls', ...args], { env: signedInEnv(server.url) });
  };
  /** How deep `deep` is in a record read back from pds's output. */
  const depthOf = (record: { deep: unknown }): number => {
    let depth = 0;
    for (let inner = record.deep; typeof inner === 'object' && inner !== null; depth++)
      inner = (inner as { a: unknown }).a;
    return depth;
  };

  it('--json and ndjson write it whole', async () => {
    const json = await ls('--json');
    expect(json.code, json.stderr.slice(0, 300)).toBe(0);
    const [record] = JSON.parse(json.stdout) as { name: string; deep: unknown }[];
    expect(record?.name).toBe('Deep Artist');
    expect(depthOf(record as { deep: unknown })).toBe(10_000);
    const ndjson = await ls('--format', 'ndjson');
    expect(ndjson.code, ndjson.stderr.slice(0, 300)).toBe(0);
    expect(depthOf(JSON.parse(ndjson.stdout) as { deep: unknown })).toBe(10_000);
  });

  it('csv writes it, past 16 levels as one JSON cell; tsv and the table leave it out', async () => {
    const csv = await ls('--format', 'csv');
    expect(csv.code, csv.stderr.slice(0, 300)).toBe(0);
    expect(csv.stdout).toContain(',Deep Artist,');
    // Spread into dotted columns 16 levels deep, the rest one cell of JSON.
    const rest = `${'{"a":'.repeat(10_000 - 16)}1${'}'.repeat(10_000 - 16)}`;
    expect(csv.stdout).toContain(`,"${rest.replaceAll('"', '""')}"\r\n`);
    const tsv = await ls('--format', 'tsv');
    expect(tsv).toMatchObject({ code: 0, stdout: 'ID\tNAME\n1\tDeep Artist\n', stderr: '' });
  });

  it('--jq and yaml: the field and its depth named, exit 2; without the field they work', async () => {
    const jq = await ls('--jq', '.[0].name');
    expect(jq.code).toBe(2);
    expect(jq.stderr).toBe(
      "error: the answer's field 0.deep.a.a.… is nested 10,002 levels deep, more than jq takes (9,999)\n" +
        '  --json and the other formats write it, or leave it out with --fields\n',
    );
    const yaml = await ls('--format', 'yaml');
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toContain("error: the answer's field 0.deep.a.a.… is nested 10,002 levels deep");
    const narrowed = await ls('--format', 'yaml', '--fields', 'id,name');
    expect(narrowed).toMatchObject({ code: 0, stdout: '- id: 1\n  name: Deep Artist\n' });
    const jqNarrowed = await ls('--fields', 'id,name', '--jq', '.[0].name');
    expect(jqNarrowed).toMatchObject({ code: 0, stdout: 'Deep Artist\n' });
  });
});

describe('an id pds cannot represent exactly is named with its record and path', () => {
  const artist = (id: string) =>
    `{"id":${id},"name":"B","project_id":"${DEMO_PROJECT}","created_at":"2024-01-01T00:00:00Z"}`;
  const answering =
    (id: string): Behaviour =>
    (req, res) => {
      req.resume();
      const one = /\/v1\/artists\/\d+/.test(req.url ?? '');
      const body = one
        ? `{"data":${artist(id)}}`
        : `{"data":[${artist('1')},${artist(id)}],"meta":{"total":2,"page":1,"perPage":50}}`;
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    };

  it.each([
    ['9007199254740993', '9007199254740992 as read: past 2^53, where numbers lose their last digits'],
    ['12.5', '12.5 as read: not a whole number'],
  ])('id %s: a list names record 2 and data.1.id; a get names data.id; exit 1', async (id, said) => {
    const server = await rogue(answering(id));
    const list = await runPds(['artists', 'ls'], { env: signedInEnv(server.url) });
    expect(list.code).toBe(1);
    expect(list.stderr).toBe(
      `error: the answer to GET /v1/artists holds an id pds cannot represent exactly, in record 2 of the list\n  data.1.id is ${said}\n`,
    );
    const get = await runPds(['artists', 'get', '5'], { env: signedInEnv(server.url) });
    expect(get.code).toBe(1);
    expect(get.stderr).toBe(
      `error: the answer to GET /v1/artists/5 holds an id pds cannot represent exactly, in the record\n  data.id is ${said}\n`,
    );
  });
});

describe("the service's field names are data too", () => {
  const record = `{"id":1,"name":"Proto","project_id":"${DEMO_PROJECT}","created_at":"2024-01-01T00:00:00Z","__proto__":{"polluted":"yes"},"constructor":"c"}`;
  const artist: Behaviour = (req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"data":${record}}`);
  };
  const get = async (...args: string[]) => {
    const server = await rogue(artist);
    return runPds(['artists', 'get', '1', ...args], { env: signedInEnv(server.url) });
  };

  it('--fields __proto__ picks it; csv spreads it; the record view shows it', async () => {
    const picked = await get('--fields', '__proto__,constructor,name', '--json');
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout.replace(/\s+/g, '')).toBe('{"__proto__":{"polluted":"yes"},"constructor":"c","name":"Proto"}');
    const csv = await get('--format', 'csv', '--fields', 'name,__proto__');
    expect(csv).toMatchObject({ code: 0, stdout: 'name,__proto__.polluted\r\nProto,yes\r\n' });
    const view = await get('--format', 'tsv');
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toContain('__proto__.polluted\tyes\n');
    expect(view.stdout).toContain('constructor\tc\n');
  });

  it("csv: a flat record without a column the first page has leaves it empty, even one named 'constructor'", async () => {
    const flat = (id: number, extra: string) =>
      `{"id":${id},"name":"N${id}","project_id":"${DEMO_PROJECT}","created_at":"2024-01-01T00:00:00Z"${extra}}`;
    const server = await rogue((req, res) => {
      req.resume();
      const items = [flat(1, ',"constructor":"c"'), flat(2, '')];
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`{"data":[${items.join(',')}],"meta":{"total":2}}`);
    });
    const csv = await runPds(['artists', 'ls', '--format', 'csv'], { env: signedInEnv(server.url) });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(
      'id,internal_uuid,name,project_id,created_at,updated_at,merged,constructor\r\n' +
        `1,,N1,${DEMO_PROJECT},2024-01-01T00:00:00Z,,,c\r\n` +
        `2,,N2,${DEMO_PROJECT},2024-01-01T00:00:00Z,,,\r\n`,
    );
  });
});
