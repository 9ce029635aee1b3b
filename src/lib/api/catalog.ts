// Lists and gets of the catalog resources. They differ only in path, schema and query flags, so
// their definitions (resources.ts) describe them and one set of functions serves all.
import type { HttpClient, QueryValue } from '../http/client.js';
import { ServiceError } from '../errors.js';
import { listShape, type ShapeType } from '../shape.js';
import { ITEM_SHAPES, RECORD_SHAPE } from './shapes.js';
import { driftNotes } from './drift.js';
import { RESOURCES, type ResourceName } from '../resources.js';

// The zod schemas of each resource are in catalog-schemas.ts, loaded when a record is fetched by id
// or a page fails its plain check: a list that goes well loads no zod.

/** The record type of each resource (its documented shape), in a list and fetched by id alike. */
export type ResourceItem<R extends ResourceName> = ShapeType<(typeof ITEM_SHAPES)[R]>;
export type Contract = ResourceItem<'contracts'>;
export type Statement = ResourceItem<'statements'>;
export type Entity = ResourceItem<'entities'>;
export type Relation = ResourceItem<'relations'>;
export type Artist = ResourceItem<'artists'>;
export type Writer = ResourceItem<'writers'>;
export type Recording = ResourceItem<'recordings'>;
export type Composition = ResourceItem<'compositions'>;

/** One page of a list, whichever envelope it came in. */
export interface ListPage<T> {
  items: T[];
  page: number;
  perPage: number;
  /** Known when the service sent the paged envelope. */
  total?: number;
}

/** Either envelope, as one page; a plain array carries no total. */
export function toPage<T>(
  data: T[] | { items: T[]; total_count: number; page: number; per_page: number },
  requested: { page: number; perPage: number },
): ListPage<T> {
  if (Array.isArray(data)) return { items: data, page: requested.page, perPage: requested.perPage };
  // A per_page of 0 (or nonsense) says nothing about the page size: keep the one asked for.
  const perPage = Number.isInteger(data.per_page) && data.per_page > 0 ? data.per_page : requested.perPage;
  return { items: data.items, total: data.total_count, page: data.page, perPage };
}

export interface ListQuery {
  projectId: string;
  page: number;
  perPage: number;
  /** Resource-specific flags: includes, roles, includeMerged, includeProducts. */
  extra?: Record<string, QueryValue>;
  /** Cancels the request (pages fetched ahead that turn out not to be needed). */
  signal?: AbortSignal;
}

/** What a list page must be: an array of records with ids, or the paged envelope of them. */
const LIST_SHAPE = listShape(RECORD_SHAPE);

export function createCatalogApi(http: HttpClient) {
  const drift = http.tracing ? driftNotes((line) => http.trace(line)) : undefined;
  const listPage = async <R extends ResourceName>(
    resource: R,
    query: ListQuery,
  ): Promise<ListPage<ResourceItem<R>>> => {
    const { path } = RESOURCES[resource];
    const data = await http.shapedData<
      ResourceItem<R>[] | { items: ResourceItem<R>[]; total_count: number; page: number; per_page: number }
    >(
      {
        path,
        query: { projectId: query.projectId, page: query.page, perPage: query.perPage, ...query.extra },
        ...(query.signal ? { signal: query.signal } : {}),
      },
      LIST_SHAPE,
      async () => (await import('./catalog-schemas.js')).listSchemaOf(resource),
    );
    const page = toPage(data, query);
    drift?.(resource, ITEM_SHAPES[resource], page.items);
    return page;
  };

  return {
    listPage,

    /** Every page from `query.page` on, in order, fetching up to `concurrency` pages at once. */
    allPages<R extends ResourceName>(
      resource: R,
      query: ListQuery,
      concurrency = PAGES_AT_ONCE,
    ): AsyncGenerator<ListPage<ResourceItem<R>>> {
      return followPages((page, signal) => listPage(resource, { ...query, page, signal }), query.page, concurrency);
    },

    async get<R extends ResourceName>(
      resource: R,
      projectId: string,
      id: string,
      extra: Record<string, QueryValue> = {},
    ): Promise<ResourceItem<R>> {
      const { path } = RESOURCES[resource];
      const { RESOURCE_SCHEMAS } = await import('./catalog-schemas.js');
      const record = (await http.data(
        { path: `${path}/${encodeURIComponent(id)}`, query: { projectId, ...extra } },
        RESOURCE_SCHEMAS[resource],
      )) as ResourceItem<R>;
      drift?.(resource, ITEM_SHAPES[resource], [record]);
      return record;
    },
  };
}

export type CatalogApi = ReturnType<typeof createCatalogApi>;

/** The service's pagination repeated records already listed: the walk stopped rather than loop. */
export class PaginationError extends ServiceError {}

/** How the user asked for every page, and how to list one page instead: said when the walk stops. */
export interface PageWalk {
  flag: string;
  onePage: string;
}

/** `--all` of the list commands. */
const ALL: PageWalk = { flag: '--all', onePage: '--page' };

/** A record's id as it came (a string or a number): keyed as is, no string made per record. */
type RecordKey = string | number;
const defaultId = (item: unknown): RecordKey => {
  const id = typeof item === 'object' && item !== null && 'id' in item ? item.id : item;
  return typeof id === 'number' ? id : String(id);
};

/** How many pages an `--all` fetches at once (the window followPages fetches ahead in). */
export const PAGES_AT_ONCE = 8;

/** How many recent pages' ids are remembered to drop records a shifted page repeats. */
const RECENT_PAGES = 4;

/**
 * What a walk has listed, so that a misbehaving pagination neither loops nor prints a record twice:
 * a page that repeats an earlier page (same ids; a service that ignores `page`, or cycles) ends the
 * walk with a PaginationError, and a record repeated from the first page or one of the last few
 * pages (offsets shifted by an insert) is dropped. Memory stays flat: the ids of those few pages,
 * and one short fingerprint per page, not every id (which cost ~9 MB at 100,000).
 */
class RepeatFilter<T> {
  /** Records let through so far. */
  listed = 0;
  private firstIds: Set<RecordKey> | undefined;
  private readonly recent: Set<RecordKey>[] = [];
  private readonly fingerprints = new Set<string>();

  constructor(
    private readonly walk: PageWalk,
    private readonly idOf: (item: T) => RecordKey,
  ) {}

  /**
   * The page without records already listed; throws when the page repeats one listed before. The
   * message names the page pds asked for: a service that ignores `page` echoes the wrong number.
   */
  fresh(page: ListPage<T>, requested: number): ListPage<T> {
    const ids = page.items.map(this.idOf);
    const fingerprint = `${ids.length}\u0000${ids[0]}\u0000${ids[ids.length - 1]}`;
    // One pass of look-ups per page (each id against the first page and the last few), and an
    // array of the repeats only when there are some: this runs for every record of an `--all`.
    let repeats: boolean[] | undefined;
    let repeated = 0;
    for (let index = 0; index < ids.length; index++) {
      const id = ids[index] as RecordKey;
      if (this.firstIds?.has(id) !== true && !this.recent.some((set) => set.has(id))) continue;
      repeats ??= new Array<boolean>(ids.length).fill(false);
      repeats[index] = true;
      repeated++;
    }
    if (ids.length > 0 && (this.fingerprints.has(fingerprint) || repeated === ids.length)) {
      throw new PaginationError(
        `the service's pagination repeats itself: page ${requested} holds only records already listed, so ${this.walk.flag} stopped after ${this.listed} records`,
        {
          details: [
            `the service seems to ignore the page parameter; list page by page with ${this.walk.onePage}, or report it to the service`,
          ],
        },
      );
    }
    this.fingerprints.add(fingerprint);
    const pageIds = new Set(ids);
    if (!this.firstIds) this.firstIds = pageIds;
    else {
      this.recent.push(pageIds);
      if (this.recent.length > RECENT_PAGES) this.recent.shift();
    }
    const kept = repeats;
    const items = kept === undefined ? page.items : page.items.filter((_, index) => !kept[index]);
    this.listed += items.length;
    return items === page.items ? page : { ...page, items };
  }
}

/**
 * Follows pages in order with bounded concurrency. When the first page tells the total, only the
 * pages up to it are fetched; when it does not (plain arrays), pages are fetched ahead in a window
 * (at most `concurrency - 1` wasted requests, cancelled as soon as the walk stops). The walk ends
 * at the first page that is empty or shorter than the page size, or once the records reach the
 * total; records already listed are dropped (RepeatFilter).
 */
export async function* followPages<T>(
  fetchPage: (page: number, signal: AbortSignal) => Promise<ListPage<T>>,
  startPage: number,
  concurrency: number,
  { walk = ALL, idOf = defaultId }: { walk?: PageWalk; idOf?: (item: T) => RecordKey } = {},
): AsyncGenerator<ListPage<T>> {
  const cancel = new AbortController();
  const repeats = new RepeatFilter<T>(walk, idOf);
  const first = await fetchPage(startPage, cancel.signal);
  const { perPage, total } = first;
  /** Whether the walk is over after this page (as received, before dropping repeats). */
  const isLast = (page: ListPage<T>): boolean =>
    page.items.length === 0 ||
    page.items.length < perPage ||
    (total !== undefined && repeats.listed >= total - (startPage - 1) * perPage);
  yield repeats.fresh(first, startPage);
  if (isLast(first)) return;
  const lastPage = total !== undefined ? Math.ceil(total / perPage) : Infinity;
  /**
   * The pages requested and not yet yielded, in page order: `current`, `current + 1`, … An array,
   * not a Map by page number: a Map that keeps changing replaces its table, and a replaced table
   * stays linked to the new one with the pages it held (measured over 100,000 records: promotion
   * to the old generation fell from 6.3 MB with the Map to 2.5 MB).
   */
  const inflight: Promise<ListPage<T>>[] = [];
  let next = startPage + 1;
  let current = startPage + 1;
  const fill = () => {
    while (inflight.length < concurrency && next <= lastPage) {
      const promise = fetchPage(next, cancel.signal);
      // A page fetched ahead and never awaited must not become an unhandled rejection.
      promise.catch(() => undefined);
      inflight.push(promise);
      next++;
    }
  };
  try {
    while (current <= lastPage) {
      fill();
      const promise = inflight.shift();
      if (!promise) return;
      const page = await promise;
      yield repeats.fresh(page, current);
      current++;
      if (isLast(page)) return;
    }
  } finally {
    cancel.abort();
    inflight.length = 0;
  }
}
