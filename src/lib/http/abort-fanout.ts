// One abort listener per long-lived signal (a command's Ctrl-C/SIGTERM signal), however many
// waits and requests follow it: a batch of 50 files waiting at once adds one, not 50 (Node warns
// past 10), and no chain of added-and-removed listeners keeps each request's objects alive (Node's
// EventTarget leaves a removed listener linked to the one added after it).

const followers = new WeakMap<AbortSignal, ((reason: unknown) => void)[]>();

/**
 * Calls `onAbort` with the signal's reason when it aborts (at once if it has), until the returned
 * function is called.
 */
export function whenAborted(signal: AbortSignal, onAbort: (reason: unknown) => void): () => void {
  if (signal.aborted) {
    onAbort(signal.reason);
    return () => undefined;
  }
  let list = followers.get(signal);
  if (!list) {
    const created: ((reason: unknown) => void)[] = [];
    list = created;
    followers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        for (const each of created.splice(0)) each(signal.reason);
      },
      { once: true },
    );
  }
  const callbacks = list;
  callbacks.push(onAbort);
  return () => {
    const index = callbacks.indexOf(onAbort);
    if (index >= 0) callbacks.splice(index, 1);
  };
}
