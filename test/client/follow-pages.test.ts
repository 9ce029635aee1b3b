// followPages: the --all walk over a list, in order, with bounded concurrency.
import { describe, expect, it } from 'vitest';
import { followPages, PaginationError, toPage, type ListPage } from '../../src/lib/api/catalog.js';
import { RESOURCE_SCHEMAS } from '../../src/lib/api/catalog-schemas.js';
import { compiledObject, listOf } from '../../src/lib/schemas.js';
import * as z from 'zod/mini';

/** A fake list of `total` numbered records served `perPage` at a time, with jittered latency. */
function source(
  total: number,
  perPage: number,
  options: { paged: boolean; latency?: (page: number) => number } = { paged: true },
) {
  const calls: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchPage = async (page: number): Promise<ListPage<number>> => {
    calls.push(page);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // Later pages answer first, so ordering is really tested.
    await new Promise((resolve) => setTimeout(resolve, options.latency?.(page) ?? Math.max(1, 20 - page * 2)));
    inFlight--;
    const start = (page - 1) * perPage;
    const items = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, i) => start + i + 1);
    return options.paged ? { items, page, perPage, total } : { items, page, perPage };
  };
  return {
    fetchPage,
    calls,
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

async function collect<T>(pages: AsyncIterable<ListPage<T>>): Promise<{ items: T[]; pages: number[] }> {
  const items: T[] = [];
  const numbers: number[] = [];
  for await (const page of pages) {
    numbers.push(page.page);
    items.push(...page.items);
  }
  return { items, pages: numbers };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('followPages with a total (paged envelope)', () => {
  it('yields every page in order and fetches exactly the pages there are', async () => {
    const s = source(95, 10, { paged: true });
    const result = await collect(followPages(s.fetchPage, 1, 4));
    expect(result.items).toEqual(range(95));
    expect(result.pages).toEqual(range(10));
    expect([...s.calls].sort((a, b) => a - b)).toEqual(range(10));
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    for (const concurrency of [1, 3, 6]) {
      const s = source(200, 10, { paged: true });
      await collect(followPages(s.fetchPage, 1, concurrency));
      expect(s.maxInFlight).toBeLessThanOrEqual(concurrency);
      expect(s.maxInFlight).toBe(concurrency);
    }
  });

  it('starts at the given page', async () => {
    const s = source(50, 10, { paged: true });
    const result = await collect(followPages(s.fetchPage, 3, 4));
    expect(result.pages).toEqual([3, 4, 5]);
    expect(result.items).toEqual(range(50).slice(20));
  });

  it('stops after one request for an empty list', async () => {
    const s = source(0, 10, { paged: true });
    const result = await collect(followPages(s.fetchPage, 1, 4));
    expect(result).toEqual({ items: [], pages: [1] });
    expect(s.calls).toEqual([1]);
  });

  it('stops early when a page comes back short before the announced total', async () => {
    // The total said 100, but the records stop at 35 (deleted meanwhile).
    const calls: number[] = [];
    const fetchPage = async (page: number): Promise<ListPage<number>> => {
      calls.push(page);
      const start = (page - 1) * 10;
      const items = range(35).slice(start, start + 10);
      return { items, page, perPage: 10, total: 100 };
    };
    const result = await collect(followPages(fetchPage, 1, 2));
    expect(result.items).toEqual(range(35));
    expect(result.pages).toEqual([1, 2, 3, 4]);
  });
});

describe('followPages against a misbehaving pagination', () => {
  it('ends with a PaginationError when a page repeats only records already listed (page ignored)', async () => {
    const calls: number[] = [];
    const fetchPage = async (page: number): Promise<ListPage<number>> => {
      calls.push(page);
      return { items: range(10), page: 1, perPage: 10 };
    };
    const yielded: number[] = [];
    const walk = async () => {
      for await (const page of followPages(fetchPage, 1, 4)) yielded.push(...page.items);
    };
    await expect(walk()).rejects.toThrow(PaginationError);
    await expect(walk()).rejects.toThrow(
      "the service's pagination repeats itself: page 2 holds only records already listed, so --all stopped after 10 records",
    );
    expect(yielded.slice(0, 10)).toEqual(range(10));
    expect(calls.length).toBeLessThanOrEqual(2 * 5);
  });

  it('ends a walk that cycles through pages (page 7 is page 2 again), without yielding a record twice', async () => {
    const fetchPage = async (page: number): Promise<ListPage<number>> => {
      const real = page === 1 ? 1 : ((page - 2) % 5) + 2;
      return { items: range(10).map((i) => (real - 1) * 10 + i), page, perPage: 10 };
    };
    const yielded: number[] = [];
    const walk = async () => {
      for await (const page of followPages(fetchPage, 1, 3)) yielded.push(...page.items);
    };
    await expect(walk()).rejects.toThrow('page 7 holds only records already listed, so --all stopped after 60 records');
    expect(yielded).toEqual(range(60));
  });

  it('never yields a record twice when pages overlap, and stops at the total', async () => {
    // Each page starts one record early (an insert shifted the offsets).
    const fetchPage = async (page: number): Promise<ListPage<number>> => {
      const start = Math.max(0, (page - 1) * 10 - 1);
      return { items: range(30).slice(start, start + 10), page, perPage: 10, total: 30 };
    };
    const result = await collect(followPages(fetchPage, 1, 2));
    // Pages 1..10, 10..19, 20..29: the overlap is dropped, and page 3 is the last the total allows.
    expect(result.items).toEqual(range(29));
  });

  it('stops once the records reach the total even when every page is full', async () => {
    const calls: number[] = [];
    const fetchPage = async (page: number): Promise<ListPage<number>> => {
      calls.push(page);
      return { items: range(10).map((i) => (page - 1) * 10 + i), page, perPage: 10, total: 20 };
    };
    const result = await collect(followPages(fetchPage, 1, 4));
    expect(result.items).toEqual(range(20));
    expect(Math.max(...calls)).toBe(2);
  });

  it('reads a per_page of 0 as the page size asked for', () => {
    const schema = listOf(z.looseObject({ id: z.string() }));
    const paged = schema.parse({ items: [{ id: 'a' }], total_count: 41, page: 2, per_page: 0 });
    expect(toPage(paged, { page: 2, perPage: 20 })).toEqual({ items: [{ id: 'a' }], page: 2, perPage: 20, total: 41 });
  });
});

describe('followPages without a total (plain arrays)', () => {
  it('stops at the first short page, wasting fewer than `concurrency` requests', async () => {
    const s = source(95, 10, { paged: false });
    const result = await collect(followPages(s.fetchPage, 1, 4));
    expect(result.items).toEqual(range(95));
    expect(result.pages).toEqual(range(10));
    const wasted = s.calls.filter((page) => page > 10);
    expect(wasted.length).toBeLessThanOrEqual(3);
    expect(s.maxInFlight).toBeLessThanOrEqual(4);
  });

  it('stops at an empty page when the count is an exact multiple', async () => {
    const s = source(40, 10, { paged: false });
    const result = await collect(followPages(s.fetchPage, 1, 2));
    expect(result.items).toEqual(range(40));
    expect(result.pages).toEqual([1, 2, 3, 4, 5]);
  });

  it('makes one request when the first page is short', async () => {
    const s = source(7, 10, { paged: false });
    const result = await collect(followPages(s.fetchPage, 1, 4));
    expect(result).toEqual({ items: range(7), pages: [1] });
    expect(s.calls).toEqual([1]);
  });
});

describe('followPages failures and early exit', () => {
  it('rejects with the error of the failing page, after yielding the pages before it', async () => {
    const yielded: number[] = [];
    const fetchPage = async (page: number): Promise<ListPage<number>> => {
      if (page === 3) throw new Error('page 3 failed');
      return { items: [page], page, perPage: 1, total: 6 };
    };
    const walk = async () => {
      for await (const page of followPages(fetchPage, 1, 3)) yielded.push(page.page);
    };
    await expect(walk()).rejects.toThrow('page 3 failed');
    expect(yielded).toEqual([1, 2]);
  });

  it('leaves no unhandled rejection for a page fetched ahead and never awaited', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const fetchPage = async (page: number): Promise<ListPage<number>> => {
        if (page === 4) throw new Error('ahead failed');
        return { items: [page], page, perPage: 1, total: 10 };
      };
      for await (const page of followPages(fetchPage, 1, 4)) {
        if (page.page === 2) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('starts no new request once the consumer stops', async () => {
    const s = source(1000, 10, { paged: true });
    for await (const page of followPages(s.fetchPage, 1, 3)) {
      if (page.page === 2) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(Math.max(...s.calls)).toBeLessThanOrEqual(4);
  });
});

describe('toPage and listOf', () => {
  it('reads both envelopes as one page', () => {
    const schema = listOf(z.looseObject({ id: z.string() }));
    const plain = schema.parse([{ id: 'a' }]);
    const paged = schema.parse({ items: [{ id: 'a' }], total_count: 41, page: 2, per_page: 20 });
    expect(toPage(plain, { page: 3, perPage: 20 })).toEqual({ items: [{ id: 'a' }], page: 3, perPage: 20 });
    expect(toPage(paged, { page: 3, perPage: 20 })).toEqual({ items: [{ id: 'a' }], page: 2, perPage: 20, total: 41 });
  });
});

describe('compiledObject (the parser of list records)', () => {
  const samples: unknown[] = [
    { id: 'art_1', name: 'Nova Reyes', project_id: 'p', extra: { nested: [1, 2] } },
    { name: 'Nova Reyes', id: 'art_1', project_id: 'p', merged: [{ id: 'art_9', name: 'Old', more: true }] },
    { id: 'art_1', name: 'Nova Reyes', project_id: 'p', merged: undefined },
    { id: 7, name: 'Nova Reyes', project_id: 'p' },
    { id: 'art_1', project_id: 'p' },
    { id: 'art_1', name: 'x', project_id: 'p', merged: [{ id: 3 }] },
    { id: 'c1', name: 'Deal', status: 'active', royalties: [{ rate: 'high' }] },
    { id: 12, file_name: null },
    { id: 12, file_name: 'a.pdf', unknown_field: 'kept' },
    ['not', 'an', 'object'],
    null,
    'text',
  ];

  it('checks and returns exactly what the zod/mini schema does, for every resource', () => {
    for (const [resource, item] of Object.entries(RESOURCE_SCHEMAS)) {
      const compiled = compiledObject(item);
      for (const sample of samples) {
        const expected = item.safeParse(sample);
        const actual = compiled.safeParse(sample);
        expect({ resource, sample, success: actual.success }).toEqual({ resource, sample, success: expected.success });
        if (expected.success && actual.success) {
          expect(actual.data).toEqual(expected.data);
          expect(Object.keys(actual.data)).toEqual(Object.keys(expected.data));
        } else {
          expect(actual.error?.issues).toEqual(expected.error?.issues);
        }
      }
    }
  });

  it('makes the list schema of a resource refuse a record without an id, and take any form of the rest', () => {
    const schema = listOf(compiledObject(RESOURCE_SCHEMAS.artists));
    expect(schema.safeParse([{ id: 'a', name: 'n', project_id: 'p' }]).success).toBe(true);
    expect(
      schema.safeParse([
        { id: 'a', name: 'n', project_id: 'p' },
        { name: 'b', project_id: 'p' },
      ]).success,
    ).toBe(false);
    expect(
      schema.safeParse({ items: [{ id: { a: 1 }, name: 'n' }], total_count: 1, page: 1, per_page: 20 }).success,
    ).toBe(false);
    expect(
      schema.safeParse({ items: [{ id: 3101, name: 5, project_id: null }], total_count: 1, page: 1, per_page: 20 })
        .success,
    ).toBe(true);
  });
});
