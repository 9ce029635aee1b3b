// `pds api <path>`: a raw request to any /v1 path with the profile's URL, token and project, through
// the one HTTP client (timeouts, retries of GET only, typed errors and exit codes as everywhere).
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import type { Context } from '../../lib/context.js';
import type { HttpClient, RequestOptions } from '../../lib/http/client.js';
import type { HttpResponse } from '../../lib/http/transport.js';
import { UsageError } from '../../lib/errors.js';
import { followPages, toPage } from '../../lib/api/catalog.js';
import type { ListPage } from '../../lib/api/catalog.js';
import { safeLines, safeText } from '../../lib/output/text.js';
import { keyedByText } from '../../lib/shape.js';
import { METHODS, type api } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof api>;

type Method = (typeof METHODS)[number];
/** Pages of this size when --paginate is not told one. */
const PAGINATE_PER_PAGE = 100;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const method = (opts.method ?? 'GET').toUpperCase() as Method;
  if (!METHODS.includes(method)) {
    throw new UsageError(`invalid --method '${opts.method}'`, {
      details: [`the service's methods: ${METHODS.join(', ')}`],
    });
  }
  const fields = (opts.field ?? []).map(parseField);
  const headers = Object.fromEntries((opts.header ?? []).map(parseHeader));
  if (opts.input !== undefined && method === 'GET')
    throw new UsageError('--input sends a body: use it with -X POST, PUT, PATCH or DELETE');
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate follows the pages of a GET list');
  if (opts.paginate && opts.include)
    throw new UsageError('-i and --paginate cannot be combined: --paginate prints one array of every record');

  let path = apiPath(opts.args[0]);
  // {project} is the current project, wherever it appears; asked for only when it is used.
  const usesProject = path.includes('{project}') || fields.some(([, value]) => value.includes('{project}'));
  if (usesProject) {
    const project = ctx.project();
    path = path.replaceAll('{project}', project);
    for (const field of fields) field[1] = field[1].replaceAll('{project}', project);
  }
  // -f is the query of a GET, and of any request whose body comes from --input; otherwise the body.
  // A query written in the path is part of the same query: --paginate pages from its page and
  // perPage too.
  const fieldsInQuery = method === 'GET' || opts.input !== undefined;
  const question = path.indexOf('?');
  const query = keyedByText<string>(
    question === -1 ? {} : Object.fromEntries(new URLSearchParams(path.slice(question + 1))),
  );
  if (question !== -1) path = path.slice(0, question);
  if (fieldsInQuery) {
    for (const [key, value] of fields) {
      if (Object.hasOwn(query, key)) throw new UsageError(`${key} is given twice: in the path and with -f`);
      query[key] = value;
    }
  }
  let body: unknown;
  if (opts.input !== undefined) body = await readInput(opts.input, ctx);
  else if (!fieldsInQuery && fields.length > 0) body = Object.fromEntries(fields);

  const request: RequestOptions = { method, path, query, headers, ...(body === undefined ? {} : { json: body }) };
  if (method !== 'GET' && ctx.settings.dryRun) {
    const search = new URLSearchParams(query).toString();
    const sent = body === undefined ? '' : ` with a JSON body of ${Buffer.byteLength(JSON.stringify(body))} bytes`;
    ctx.output.info(`Would send ${method} ${path}${search ? `?${search}` : ''}${sent}; nothing was sent (--dry-run)`);
    return;
  }
  const { http } = ctx.api;
  if (opts.paginate) {
    await printPages(ctx, (page, signal) => fetchPage(http, request, page, signal), query);
    return;
  }
  const response = await http.send(request);
  if (opts.include) ctx.output.write(statusAndHeaders(response, ctx.io.stdoutIsTTY));
  const answer = await response.text();
  await printBody(ctx, answer, isText(response.headers.get('content-type'), answer));
}

/** A JSON or text answer (by its type, or, untyped, by having no NUL): one that gets its last newline. */
function isText(contentType: string | null, answer: string): boolean {
  if (contentType === null || contentType.trim() === '') return !answer.includes('\0');
  return /^text\/|[/+](json|xml)\b|^application\/(javascript|x-www-form-urlencoded|x-ndjson)\b/i.test(
    contentType.trim(),
  );
}

const STAYS_AT_THE_SERVICE = "requests go to the profile's service (--api-url to change it), with its token";

/**
 * `contracts`, `/contracts`, `v1/contracts` and `/v1/contracts` all mean /v1/contracts. Whatever
 * would leave /v1/ once resolved (a URL, `//host`, `..` however encoded, a backslash) is refused:
 * the profile's token goes with the request, and only to the API.
 */
function apiPath(given: string): string {
  const trimmed = given.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) || /^[/\\]{2}/.test(trimmed)) {
    throw new UsageError(`give a path such as /v1/projects, not a URL: '${safeText(given)}'`, {
      details: [STAYS_AT_THE_SERVICE],
    });
  }
  const path = trimmed.replace(/^\/+/, '');
  if (path === '') throw new UsageError('give a path, e.g. `pds api projects`');
  const pathPart = path.split('?')[0] ?? '';
  // URL parsing turns `.`, `..`, `%2e%2e` and `\` into moves up the tree; refuse them before it does.
  const segments = pathPart.split(/[/\\]|%2f|%5c/i).map((segment) => segment.replace(/%2e/gi, '.'));
  if (segments.some((segment) => segment === '.' || segment === '..') || pathPart.includes('\\')) {
    throw new UsageError(`the path '${safeText(given)}' leaves /v1/ (it has '.', '..' or a backslash)`, {
      details: [STAYS_AT_THE_SERVICE],
    });
  }
  return /^v1(\/|\?|$)/.test(path) ? `/${path}` : `/v1/${path}`;
}

function parseField(given: string): [string, string] {
  const at = given.indexOf('=');
  if (at <= 0) throw new UsageError(`invalid -f '${given}': expected key=value`);
  return [given.slice(0, at), given.slice(at + 1)];
}

/** Headers pds sets itself: the credential, and what framing and routing the transport owns. */
const OWN_HEADERS: Record<string, string> = {
  host: 'the host is that of the API URL (--api-url)',
  authorization: "the token is the profile's (pds auth login, or PDS_TOKEN)",
  'content-length': 'the length is that of the body pds sends',
  'transfer-encoding': 'the framing is chosen by pds',
  connection: 'connections are managed by pds',
};

function parseHeader(given: string): [string, string] {
  // A header is visible ASCII (and spaces or tabs inside the value): anything else could split
  // the request or smuggle another header, and Node would only refuse it after the retries.
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?[ \t]*$/.exec(given);
  if (!match) {
    throw new UsageError(`invalid -H '${safeText(given)}': expected 'Name: value', in visible ASCII`);
  }
  const name = (match[1] ?? '').toLowerCase();
  const own = OWN_HEADERS[name];
  if (own !== undefined) throw new UsageError(`-H cannot set ${match[1]}: ${own}`);
  return [name, match[2] ?? ''];
}

async function readInput(source: string, ctx: Context): Promise<unknown> {
  let content: string;
  try {
    content = source === '-' ? await text(ctx.io.stdin) : await readFile(source, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --input ${source}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(content) as unknown;
  } catch (error) {
    throw new UsageError(`--input ${source === '-' ? '(stdin)' : source} is not JSON: ${(error as Error).message}`);
  }
}

/** The status line and headers; on a terminal the service's words are made safe like any other. */
function statusAndHeaders(response: HttpResponse, terminal: boolean): string {
  const shown = terminal ? safeText : (text: string) => text;
  const lines = [`HTTP/1.1 ${response.status} ${shown(response.statusText)}`];
  response.headers.forEach((value, name) => {
    lines.push(`${name}: ${shown(value)}`);
  });
  return `${lines.join('\n')}\n\n`;
}

/**
 * The answer as it came (ended by a newline when it is text, so a shell prompt or the next line
 * does not stick to it); pretty on a terminal; through --jq, or rendered in a --format other
 * than json, when given.
 */
async function printBody(ctx: Context, answer: string, text: boolean): Promise<void> {
  if (answer === '') return;
  let parsed: unknown;
  let isJson = true;
  try {
    parsed = JSON.parse(answer);
  } catch {
    isJson = false;
  }
  if (ctx.output.jq || (ctx.output.isData && ctx.output.mode !== 'json')) {
    if (!isJson)
      throw new UsageError(`${ctx.output.jq ? '--jq' : `--format ${ctx.output.mode}`}: the answer is not JSON`);
    await ctx.output.data(parsed);
    return;
  }
  if (!ctx.io.stdoutIsTTY) {
    ctx.output.write(text && !answer.endsWith('\n') ? `${answer}\n` : answer);
    return;
  }
  // On a terminal JSON.stringify escapes every control character; other text is made safe as lines.
  const shown = isJson ? JSON.stringify(parsed, null, 2) : safeLines(answer);
  ctx.output.write(shown.endsWith('\n') ? shown : `${shown}\n`);
}

async function fetchPage(
  http: HttpClient,
  request: RequestOptions,
  page: number,
  signal: AbortSignal,
): Promise<ListPage<unknown>> {
  const query = { ...request.query };
  const perPage = Number(query.perPage ?? PAGINATE_PER_PAGE);
  const response = await http.send({ ...request, query: { ...query, page, perPage }, signal });
  let data: unknown;
  try {
    data = (JSON.parse(await response.text()) as { data?: unknown }).data;
  } catch {
    data = undefined;
  }
  // Both list envelopes: a plain array, or {items, total_count, page, per_page}.
  if (Array.isArray(data)) return toPage(data, { page, perPage });
  if (isPaged(data)) return toPage(data, { page, perPage });
  throw new UsageError(`--paginate: ${request.path} did not answer with a list`, {
    details: ['expected {"data": [...]} or {"data": {"items": [...], "total_count": …}}'],
  });
}

function isPaged(data: unknown): data is { items: unknown[]; total_count: number; page: number; per_page: number } {
  return (
    typeof data === 'object' &&
    data !== null &&
    Array.isArray((data as { items?: unknown }).items) &&
    typeof (data as { total_count?: unknown }).total_count === 'number'
  );
}

/** Every record of every page, as one JSON array; streamed unless --jq needs it whole. */
async function printPages(
  ctx: Context,
  fetch: (page: number, signal: AbortSignal) => Promise<ListPage<unknown>>,
  query: Record<string, unknown>,
): Promise<void> {
  const start = Number(query.page ?? 1);
  if (!Number.isSafeInteger(start) || start < 1)
    throw new UsageError(`invalid page '${String(query.page)}' for --paginate`);
  const pages = followPages(fetch, start, 4, { walk: { flag: '--paginate', onePage: '-f page=N' } });
  if (ctx.output.jq || (ctx.output.isData && ctx.output.mode !== 'json')) {
    await ctx.output.list(pages as AsyncIterable<ListPage<object>>, { columns: [], id: () => '', noun: 'records' });
    return;
  }
  const pretty = ctx.io.stdoutIsTTY;
  let count = 0;
  for await (const page of pages) {
    for (const item of page.items) {
      const json = pretty ? JSON.stringify(item, null, 2).replace(/^/gm, '  ') : JSON.stringify(item);
      ctx.output.write(`${count === 0 ? '[\n' : ',\n'}${json}`);
      count++;
    }
  }
  ctx.output.write(count === 0 ? '[]\n' : '\n]\n');
}
