// A bounded pool of async work: at most `limit` tasks at once, started in order.

/** Runs `task` over the items, at most `limit` at once, in order; stops starting new ones once `signal` aborts. */
export async function pool<T>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal.aborted) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
