// A replay of the deployed service from its example answers (test/fixtures/deployed, copied from
// ../shared/examples/deployed): written from the service's description, not from the emulator, so
// pds's reader is held to what the service sends. Two loopback servers: the API (bearer token
// required, x-ratelimit-* on every answer) and a storage origin for the signed URLs, so a test can
// assert that no credential reached it. Every request is recorded with its body.
// Honest to the examples, and no further:
// - Lists page by the example's own `per_page`, whatever `perPage` asks. Page 1 is the file; page
//   p > 1 repeats its records with new ids (id + 100000·(p-1)) up to `total_count`, then is empty.
// - Optional parts are sent only when asked: contracts' `extractions` (the includes asked, [] for one
//   the example lacks), `custom_extractions` (extractorIds), `score`; `merged` (includeMerged),
//   `products` (includeProducts), statements' `detailed`/`detailed_error` (detailed=true).
// - Search and knowledge answer their example for a query containing its word, else nothing found.
// - An upload mints the staging id of the answer its completion will give: `completeAs`, else
//   `context` when the mint carried a context or folder, else `plain`. Completing before the PUT is
//   a 400. Filters the examples do not show (stagingIds, extractionStage, roles) are not applied.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;
type Answer = [status: number, body: unknown];
export interface ReplayRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: string;
}
export interface Origin {
  url: string;
  requests: ReplayRequest[];
  close(): Promise<void>;
}
export interface ReplayServer extends Origin {
  storage: Origin;
  completeAs?: 'plain' | 'context' | 'paused';
  /** Changes a successful answer's `data` before it is sent (a test of fields in other forms). */
  alter?: (path: string, data: any) => unknown;
  /** The export statement 72001's signed link serves (default STATEMENT_LINES_CSV). */
  linesCsv?: string;
}

export const FIXTURE_DIR = new URL('../fixtures/deployed/', import.meta.url);
/** An example answer, parsed afresh (tests compare pds's output with its `data`). */
export const example = (name: string): { data: any } =>
  JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURE_DIR), 'utf8'));
export const STATEMENT_LINES_CSV =
  'isrc,territory,streams,licensor_revenue\nGBQAV2600011,GB,1200,4.20\nGBQAV2600011,FR,310,1.05\n';
const INVENTED_STORAGE = 'https://storage.example';
const SIGNED_UPLOADS = '/storage/v1/object/upload/sign/';
const notFound = (what: string): Answer => [404, { error: { message: `${what} not found` } }];
const items = (name: string): Json[] => example(name).data.items;
const envelope = (records: Json[]) => ({ items: records, total_count: records.length, page: 1, per_page: 20 });

/** Each resource's records: its list example, and the records its get examples add. */
const CATALOG: Record<string, { list?: string; gets?: string[] }> = {
  contracts: { list: 'contracts.list.includes', gets: ['contracts.get.all-includes.score'] },
  statements: { list: 'statements.list', gets: ['statements.get.detailed', 'statements.get.detailed.not-processed'] },
  recordings: { list: 'recordings.list', gets: ['recordings.get.products'] },
  compositions: { list: 'compositions.list' },
  artists: { list: 'artists.list.merged' },
  relations: { list: 'relations.list' },
  writers: { gets: ['writers.get'] },
  entities: { gets: ['entities.get'] },
};
function records(resource: string): Json[] {
  const { list, gets = [] } = CATALOG[resource]!;
  const found = gets.map((name) => example(name).data as Json);
  return [...found, ...(list ? items(list) : []).filter((r) => !found.some((g) => g.id === r.id))];
}

/** A record with only the optional parts the query asked for (the header's second rule). */
function asAsked(record: Json, q: URLSearchParams, storageUrl: string): Json {
  const { extractions, custom_extractions, score, merged, products, detailed, detailed_error, ...base } = record;
  const out: Json = { ...base };
  const includes = q.get('includes')?.split(',') ?? [];
  if (includes.length > 0)
    out.extractions = Object.fromEntries(includes.map((n) => [n, (extractions as Json | undefined)?.[n] ?? []]));
  if (q.get('extractorIds')) out.custom_extractions = custom_extractions ?? [];
  if (q.get('score') === 'true' && score !== undefined) out.score = score;
  if (q.get('includeMerged') === 'true' && merged !== undefined) out.merged = merged;
  if (q.get('includeProducts') === 'true' && products !== undefined) out.products = products;
  if (q.get('detailed') === 'true')
    Object.assign(out, {
      detailed: JSON.parse(JSON.stringify(detailed ?? null).replaceAll(INVENTED_STORAGE, storageUrl)),
      detailed_error,
    });
  return out;
}

function listPage(resource: string, q: URLSearchParams, storageUrl: string): unknown {
  const plain = resource === 'contracts' && !q.get('includes') ? example('contracts.list').data : undefined;
  const file =
    plain ?? (CATALOG[resource]!.list ? example(CATALOG[resource]!.list!).data : envelope(records(resource)));
  const page = Math.max(1, Number(q.get('page') ?? 1) || 1);
  if (page === 1) return plain ?? { ...file, items: file.items.map((r: Json) => asAsked(r, q, storageUrl)) };
  const left = Math.max(0, Math.min(file.per_page, file.total_count - (page - 1) * file.per_page));
  const shifted = file.items
    .slice(0, left)
    .map((r: Json) => ({ ...asAsked(r, q, storageUrl), id: (r.id as number) + 100000 * (page - 1) }));
  return { ...file, items: shifted, page };
}

/** `/v1/projects…`: the list, one project, and its search and knowledge search. */
function projectRoute(path: string, q: URLSearchParams): Answer | undefined {
  const projects = example('projects.list').data as Json[];
  if (path === '/v1/projects') return [200, projects];
  const [, id, search] = path.match(/^\/v1\/projects\/([^/]+)(\/search|\/knowledge\/search)?$/) ?? [];
  if (!id) return undefined;
  if (!projects.some((p) => p.id === id)) return notFound('Project');
  if (!search)
    return [
      200,
      id === example('projects.get').data.id ? example('projects.get').data : projects.find((p) => p.id === id),
    ];
  if (!q.get('q')) return [400, example('error.400.fields')];
  const [name, word] = search === '/search' ? ['projects.search', 'glass'] : ['knowledge.search', 'approval'];
  const data = example(name).data;
  if (q.get('q')!.toLowerCase().includes(word)) return [200, data];
  return [
    200,
    search === '/search' ? Object.fromEntries(Object.keys(data).map((k) => [k, []])) : { ...data, results: [] },
  ];
}

/** Processes, retry and the upload's mint and complete, for contracts and statements. */
function documentRoute(
  method: string,
  resource: string,
  id: string,
  rest: string | undefined,
  body: Json,
  server: ReplayServer,
): Answer {
  if (method === 'GET' && rest === 'processes') {
    const data = example(`${resource}.processes`).data;
    return [data.staging_id, data.contract_id, data.statement_id].map(String).includes(id)
      ? [200, data]
      : notFound('Staging');
  }
  const retry = example('staging.retry').data;
  if (method === 'POST' && id === 'staging' && rest === `${retry.staging_id}/retry`) return [200, retry];
  if (method === 'POST' && id === 'uploads' && !rest) {
    const outcome = server.completeAs ?? (body.context || body.folderName ? 'context' : 'plain');
    const { staging_id, file_path } = example(`uploads.complete.${outcome}`).data;
    return [
      201,
      { staging_id, file_path, upload_url: `${server.storage.url}${SIGNED_UPLOADS}${resource}/${file_path}?token=sig` },
    ];
  }
  if (method === 'POST' && id === 'uploads' && rest === 'complete') {
    const done = ['plain', 'context', 'paused']
      .map((o) => example(`uploads.complete.${o}`).data)
      .find((d) => d.staging_id === body.stagingId);
    if (!done) return notFound('Staging');
    const put = server.storage.requests.some((r) => r.method === 'PUT' && r.path.endsWith(`/${done.file_path}`));
    return put ? [200, done] : [400, { error: { message: 'No file was uploaded for this staging' } }];
  }
  return notFound('Route');
}

function route(method: string, path: string, q: URLSearchParams, body: Json, server: ReplayServer): Answer {
  const project = method === 'GET' ? projectRoute(path, q) : undefined;
  if (project) return project;
  const [, resource, id, rest] = path.match(/^\/v1\/([a-z]+)(?:\/([^/]+))?(?:\/(.+))?$/) ?? [];
  if (!resource || !(resource === 'tags' || resource in CATALOG)) return notFound('Route');
  if (!(example('projects.list').data as Json[]).some((p) => p.id === q.get('projectId'))) return notFound('Project');
  if (method === 'GET' && resource === 'tags' && !id) {
    const tags = items('tags.list').filter((t) => t.scope === (q.get('scope') ?? t.scope));
    return [200, { ...example('tags.list').data, items: tags, total_count: tags.length }];
  }
  if (resource === 'tags') return notFound('Route');
  if (method === 'GET' && !id) return [200, listPage(resource, q, server.storage.url)];
  if (method === 'GET' && !rest) {
    const found = records(resource).find((r) => String(r.id) === id || r.internal_uuid === id);
    return found ? [200, asAsked(found, q, server.storage.url)] : notFound(resource.replace(/s$/, ''));
  }
  if ((resource === 'contracts' || resource === 'statements') && id)
    return documentRoute(method, resource, id, rest, body, server);
  return notFound('Route');
}

async function listen(
  answer: (req: ReplayRequest) => [number, Record<string, string>, string],
  requests: ReplayRequest[],
): Promise<Origin> {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://replay');
    const seen = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    };
    requests.push(seen);
    try {
      const [status, headers, body] = answer(seen);
      res.writeHead(status, headers).end(body);
    } catch (error) {
      // A slip of the replay itself: said to the test, not a hang.
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `replay server: ${String(error)}` } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, close };
}

const parseBody = (text: string): Json => {
  try {
    return text ? (JSON.parse(text) as Json) : {};
  } catch {
    return {};
  }
};

export async function startReplayServer(): Promise<ReplayServer> {
  const storage = await listen(({ method, path, query }) => {
    if (query.token !== 'sig') return [400, {}, '{"error":"invalid signature"}'];
    if (method === 'GET' && path === '/exports/72001.csv')
      return [200, { 'content-type': 'text/csv' }, server.linesCsv ?? STATEMENT_LINES_CSV];
    if (method === 'PUT' && path.startsWith(SIGNED_UPLOADS))
      return [200, { 'content-type': 'application/json' }, JSON.stringify({ Key: path.slice(SIGNED_UPLOADS.length) })];
    return [404, {}, '{"error":"not found"}'];
  }, []);
  let remaining = 600;
  const server: ReplayServer = {
    url: '',
    requests: [],
    storage,
    close: async () => {
      await Promise.all([api.close(), storage.close()]);
    },
  };
  const api = await listen((req) => {
    const limits = {
      'content-type': 'application/json',
      'x-ratelimit-limit': '600',
      'x-ratelimit-remaining': String(Math.max(0, --remaining)),
      'x-ratelimit-reset': '60',
    };
    if (!/^Bearer \S+$/.test(req.headers.authorization ?? ''))
      return [401, limits, JSON.stringify({ error: { message: 'Missing or invalid bearer token' } })];
    const [status, body] = route(req.method, req.path, new URLSearchParams(req.query), parseBody(req.body), server);
    if (status >= 400) return [status, limits, JSON.stringify(body)];
    return [status, limits, JSON.stringify({ data: server.alter ? server.alter(req.path, body) : body })];
  }, server.requests);
  server.url = api.url;
  return server;
}
