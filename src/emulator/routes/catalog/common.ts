// What every catalog route shares: paging, lookups by id, and merged records' roots.
import { HttpError, deployedForms, driftedForms, flag, paging, type Reply, type RouteContext } from '../../http.js';
import { storeIdOf, type NumberedKind } from '../../deployed/ids.js';
import { byId, derived } from '../../deployed/indexes.js';

export type Fields = Record<string, unknown>;

/** The object without its undefined and null values (docs/service.md, "Records": such fields are omitted). */
export function compact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** A page of a list whose `data` is a plain array (projects, entities, contracts, writers, artists). */
export function arrayPage<T>(ctx: RouteContext, items: readonly T[], shape: (item: T) => Fields): Reply {
  if (driftedForms(ctx.options)) return envelopePage(ctx, items, shape);
  const { page, perPage } = paging(ctx);
  return { body: { data: items.slice((page - 1) * perPage, page * perPage).map(shape) } };
}

/** A page in the envelope of statements, compositions, recordings and relations. */
export function envelopePage<T>(ctx: RouteContext, items: readonly T[], shape: (item: T) => Fields): Reply {
  const { page, perPage } = paging(ctx);
  return {
    body: {
      data: {
        items: items.slice((page - 1) * perPage, page * perPage).map(shape),
        total_count: items.length,
        page,
        per_page: perPage,
      },
    },
  };
}

export function found<T>(record: T | undefined, what: string): T {
  if (record === undefined) throw new HttpError(404, `${what} not found`);
  return record;
}

export const deployed = (ctx: RouteContext): boolean => deployedForms(ctx.options);

/**
 * The catalog record a path's id names: the store's id in the seed's forms, the numeric id of the
 * kind's range in the deployed forms (../deployed/ids.ts). These lists are only ever appended to,
 * so their index by id stays true.
 */
export function recordOf<T extends { id: string }>(
  ctx: RouteContext,
  list: readonly T[],
  kind: NumberedKind,
): T | undefined {
  const key = ctx.params.id ?? '';
  const id = deployed(ctx) ? storeIdOf(kind, key) : key;
  return id === undefined ? undefined : byId(list).get(id);
}

interface Mergeable {
  id: string;
  merged_into?: string;
}

/**
 * What a list page needs from a whole list, computed once per list rather than once per page (a
 * page then costs its own records, not the list's: walking 100,000 artists took 5000 passes over
 * them). The root records in order, and the duplicates merged into each root.
 */
interface MergeIndex<T extends Mergeable> {
  roots: T[];
  merged: Map<string, T[]>;
}

// Kept while the list keeps its length (../deployed/indexes.ts): merges are made when records are
// created (seeded), never later, so a list of the same length has the same roots.
const mergeIndex = <T extends Mergeable>(records: readonly T[]): MergeIndex<T> =>
  derived(records, 'merges', () => {
    const index: MergeIndex<T> = { roots: [], merged: new Map() };
    for (const record of records) {
      if (record.merged_into === undefined) {
        index.roots.push(record);
        continue;
      }
      const list = index.merged.get(record.merged_into);
      if (list) list.push(record);
      else index.merged.set(record.merged_into, [record]);
    }
    return index;
  });

export const roots = <T extends Mergeable>(records: readonly T[]): T[] => mergeIndex(records).roots;

/**
 * The duplicates merged into each root, when `includeMerged=true`; undefined otherwise, which the
 * shape functions read as "no `merged` key".
 */
export function mergedIndex<T extends Mergeable>(
  ctx: RouteContext,
  records: readonly T[],
): Map<string, T[]> | undefined {
  return flag(ctx, 'includeMerged') ? mergeIndex(records).merged : undefined;
}

export const mergedRefs = <T extends Mergeable & { name: string }>(index: Map<string, T[]> | undefined, id: string) =>
  index && (index.get(id) ?? []).map((m) => ({ id: m.id, name: m.name }));
