// Runs exec commands in worker threads (program: ./worker.ts), within bounds that keep the emulator
// answering whatever the load: at most `workers` threads exist at once (a spare that has loaded
// just-bash ahead counts as one), at most `queue` requests wait for a thread beyond those, and
// the rest are refused at once (ExecBusyError → 429). Each thread has a capped heap and file
// system, each request a cap on its total output, and a hard time limit: just-bash stops a runaway
// script by itself a little before the limit, and the thread is terminated at the limit if
// something still runs. A thread serves one job (the commands of a request, or one command of a
// parallel request) and is then ended, so no request sees another's files.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { requireFullBuild } from '../../lib/ci/action-build.js';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CommandResult, ExecRequest, WorkerMessage, WorkerSetup } from './protocol.js';
import { WORKER_SOURCE } from './worker.js';
import { packWorkspace, YAML_OPTIONS, type PackedWorkspace, type Workspace } from './workspace.js';

export interface ExecLimits {
  /** Exec threads alive at once. */
  workers: number;
  /** Requests that may wait for a thread when all are busy; one more is refused. */
  queue: number;
  /** Bytes of stdout and stderr one request may return, all commands together. */
  outputBytes: number;
  /** V8 heap of one thread beyond its index of the workspace's paths, in MiB. */
  heapMb: number;
  /** Bytes the in-memory file system of one thread may hold (the files commands write). */
  fileSystemBytes: number;
}

export const DEFAULT_EXEC_LIMITS: ExecLimits = {
  workers: 4,
  queue: 8,
  outputBytes: 4 * 1024 * 1024,
  heapMb: 96,
  fileSystemBytes: 32 * 1024 * 1024,
};

/** When a request's time runs out, set when its first command starts. */
interface TimeWindow {
  deadline?: number;
}

/** How a request's commands run: one after another over one file system, or each on its own. */
export type ExecMode = 'sequential' | 'parallel';

/** All threads are busy and the queue is full. */
export class ExecBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('the sandbox is busy');
  }
}

/** An unused spare is ended after this long, so an idle emulator holds no thread. */
const SPARE_IDLE_MS = 60_000;
/** Exit status of a command stopped by the time limit, as timeout(1) reports it. */
const TIMED_OUT = 124;
/** Exit status of a command whose shell died (out of memory, internal error) or never ran. */
const CRASHED = 125;

/**
 * Resolved from this module, which lives in the package (src/ under tests, dist/chunks/ when built).
 * pds does not install just-bash: the build copies its bundle to dist/just-bash/ (see
 * scripts/just-bash-copy.js), which built code takes; under tests, just-bash is a devDependency.
 */
function workerSetup(): WorkerSetup {
  requireFullBuild("the emulator's sandbox");
  const require = createRequire(import.meta.url);
  const copy = fileURLToPath(new URL('../just-bash/index.cjs', import.meta.url));
  return { justBash: existsSync(copy) ? copy : require.resolve('just-bash'), yaml: require.resolve('yaml') };
}

interface Thread {
  worker: Worker;
  failure?: Error;
  exited: boolean;
}

/** What is left of one request's output allowance, shared by its jobs. */
class OutputBudget {
  private cut = false;

  constructor(
    private left: number,
    private readonly limit: number,
  ) {}

  get exhausted(): boolean {
    return this.cut;
  }

  /** The result within the allowance: text past it is dropped and a visible marker says so. */
  take(result: CommandResult): CommandResult {
    const stdout = this.clip(result.stdout);
    const stderr = this.clip(result.stderr);
    if (!stdout.cut && !stderr.cut) return result;
    const marker = `\n[sandbox: output cut: a request may return ${formatBytes(this.limit)} of output]\n`;
    return {
      ...result,
      stdout: stdout.text + (stdout.cut ? marker : ''),
      stderr: stderr.text + (stderr.cut && !stdout.cut ? marker : ''),
    };
  }

  private clip(text: string): { text: string; cut: boolean } {
    const size = Buffer.byteLength(text);
    if (size <= this.left) {
      this.left -= size;
      return { text, cut: false };
    }
    // Cut on a character boundary: a partial UTF-8 sequence decodes to U+FFFD, which is dropped.
    const kept = Buffer.from(text)
      .subarray(0, this.left)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    this.left = 0;
    this.cut = true;
    return { text: kept, cut: true };
  }
}

export const formatBytes = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;

export class SandboxRunner {
  private readonly limits: ExecLimits;
  private readonly setup = workerSetup();
  private readonly threads = new Set<Thread>();
  private spare: Thread | undefined;
  private spareTimer: NodeJS.Timeout | undefined;
  /** Jobs waiting for a thread, first come first served. */
  private readonly waiting: { chars: number; start: (thread: Thread) => void; cancel: (error: Error) => void }[] = [];
  /** Requests being served or waiting. */
  private admitted = 0;
  private closed = false;

  constructor(limits: Partial<ExecLimits> = {}) {
    this.limits = { ...DEFAULT_EXEC_LIMITS, ...limits };
  }

  /** Starts a thread ahead of the next request, when one may start and none is waiting. */
  warm(): void {
    if (this.closed || this.spare || this.threads.size >= this.limits.workers) return;
    this.spare = this.spawn(0);
    clearTimeout(this.spareTimer);
    const spare = this.spare;
    this.spareTimer = setTimeout(() => {
      if (this.spare === spare) {
        this.spare = undefined;
        void spare.worker.terminate();
      }
    }, SPARE_IDLE_MS).unref();
  }

  /**
   * Runs `commands` within `timeoutMs` in all (counted from when the first one starts) and answers
   * one result per command, in the order of the commands. Sequential: one thread runs them in order
   * over one file system; a command running when the limit (or a crash) hit gets 124 (or 125), and
   * each one that never ran the same status with a "not run" note. Parallel: each command runs in
   * a thread of its own, as threads come free.
   * Throws ExecBusyError at once when the queue is full; `signal` (the client went away) gives up.
   */
  async run(
    workspace: Workspace | Promise<Workspace>,
    commands: string[],
    options: { timeoutMs: number; mode?: ExecMode; signal?: AbortSignal },
  ): Promise<CommandResult[]> {
    if (this.closed) throw new Error('the sandbox runner is closed');
    if (this.admitted >= this.limits.workers + this.limits.queue) throw new ExecBusyError(1);
    this.admitted++;
    try {
      const packed = await packWorkspace(await workspace);
      const budget = new OutputBudget(this.limits.outputBytes, this.limits.outputBytes);
      // The time limit is the request's, counted from when its first command starts.
      const window: TimeWindow = {};
      if (options.mode === 'parallel') {
        const results = await Promise.all(
          commands.map((command) => this.job(packed, [command], budget, options.timeoutMs, window, options.signal)),
        );
        return results.flat();
      }
      return await this.job(packed, commands, budget, options.timeoutMs, window, options.signal);
    } finally {
      this.admitted--;
    }
  }

  /** Ends every thread and refuses what waits: the emulator is stopping. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.spareTimer);
    this.spare = undefined;
    for (const waiter of this.waiting.splice(0)) waiter.cancel(new Error('the emulator is stopping'));
    await Promise.all([...this.threads].map((thread) => thread.worker.terminate()));
  }

  private spawn(pathChars: number): Thread {
    const thread: Thread = {
      worker: new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: this.setup,
        resourceLimits: {
          // The workspace's paths arrive as one string and are indexed once: room for them comes on
          // top (the contents stay in the shared buffer, outside the heap).
          maxOldGenerationSizeMb: this.limits.heapMb + Math.ceil((8 * pathChars) / (1024 * 1024)),
          maxYoungGenerationSizeMb: 16,
        },
        // Whatever the libraries print stays out of the emulator's own output.
        stdout: true,
        stderr: true,
      }),
      exited: false,
    };
    // A thread must never keep the process alive: close() ends them, and a spare just waits.
    thread.worker.unref();
    thread.worker.stdout.resume();
    thread.worker.stderr.resume();
    thread.worker.on('error', (error) => {
      thread.failure = error;
    });
    thread.worker.once('exit', () => {
      thread.exited = true;
      this.threads.delete(thread);
      if (this.spare === thread) this.spare = undefined;
      this.next();
    });
    this.threads.add(thread);
    return thread;
  }

  /** A thread freed up: the first waiting job gets a new one, or a spare loads for the next request. */
  private next(): void {
    if (this.closed) return;
    const waiter = this.waiting.shift();
    if (waiter) waiter.start(this.spawn(waiter.chars));
    else if (this.admitted > 0) this.warm();
  }

  private thread(packed: PackedWorkspace, signal: AbortSignal | undefined): Promise<Thread> {
    // A request still reading its workspace when close() came starts nothing: its thread's time
    // limit would keep the stopping emulator alive until it ran out.
    if (this.closed) return Promise.reject(new Error('the sandbox runner is closed'));
    const spare = this.spare;
    if (spare && packed.paths.length < 2 * 1024 * 1024) {
      this.spare = undefined;
      clearTimeout(this.spareTimer);
      return Promise.resolve(spare);
    }
    if (spare) {
      // A large workspace needs a thread with a larger heap than the spare has.
      this.spare = undefined;
      void spare.worker.terminate();
    }
    if (this.threads.size < this.limits.workers) return Promise.resolve(this.spawn(packed.paths.length));
    return new Promise((resolve, reject) => {
      const waiter = {
        chars: packed.paths.length,
        start: (thread: Thread) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(thread);
        },
        cancel: (error: Error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(new Error('the client went away'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private async job(
    packed: PackedWorkspace,
    commands: string[],
    budget: OutputBudget,
    timeoutMs: number,
    window: TimeWindow,
    signal: AbortSignal | undefined,
  ): Promise<CommandResult[]> {
    const thread = await this.thread(packed, signal);
    window.deadline ??= Date.now() + timeoutMs;
    const limit = window.deadline - Date.now();
    // A command of a parallel request that gets a thread only after the request's time (or
    // output) ran out is not started.
    if (limit <= 0 || budget.exhausted) {
      void thread.worker.terminate();
      const reason =
        limit <= 0
          ? `timed out after ${timeoutMs} ms`
          : `the request's output reached ${formatBytes(this.limits.outputBytes)}`;
      return withUnfinished(commands, [], -1, reason, limit <= 0 ? TIMED_OUT : CRASHED);
    }
    // Leave just-bash time to stop by itself, which keeps the output of the command it stops.
    const margin = Math.min(500, Math.floor(limit / 5));
    const request: ExecRequest = {
      workspace: packed,
      commands,
      deadline: Date.now() + limit - margin,
      yamlOptions: YAML_OPTIONS,
      fileSystemBytes: this.limits.fileSystemBytes,
    };
    return new Promise((resolve) => {
      const results: CommandResult[] = [];
      let done = false;
      let stop: 'time' | 'output' | 'client' | undefined;
      const end = (why: typeof stop) => {
        stop ??= why;
        void thread.worker.terminate();
      };
      const timer = setTimeout(() => end('time'), limit);
      const onAbort = () => end('client');
      signal?.addEventListener('abort', onAbort, { once: true });
      thread.worker.on('message', (message: WorkerMessage) => {
        if (stop) return;
        if ('result' in message) {
          results.push(budget.take(message.result));
          // Nothing more would be returned: the later commands are not worth running.
          if (budget.exhausted && results.length < commands.length) end('output');
        } else {
          done = true;
          void thread.worker.terminate();
        }
      });
      const finish = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const timedOut = stop === 'time' || (done && results.length < commands.length);
        const reason = this.stopReason(stop, timedOut, thread, timeoutMs);
        // A thread that said it was done, or was stopped for its output, stopped between commands.
        const running = done || stop === 'output' ? -1 : results.length;
        resolve(withUnfinished(commands, results, running, reason, timedOut ? TIMED_OUT : CRASHED));
      };
      if (thread.exited) finish();
      else thread.worker.once('exit', finish);
      thread.worker.postMessage(request);
    });
  }

  /** Why a job ended before all its commands had run, as its results say it. */
  private stopReason(
    stop: 'time' | 'output' | 'client' | undefined,
    timedOut: boolean,
    thread: Thread,
    timeoutMs: number,
  ): string {
    if (stop === 'output') return `the request's output reached ${formatBytes(this.limits.outputBytes)}`;
    if (timedOut) return `timed out after ${timeoutMs} ms`;
    if (stop === 'client') return 'the client went away';
    if ((thread.failure as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY')
      return 'the shell ran out of memory';
    return `the shell stopped: ${thread.failure?.message ?? 'unexpectedly'}`;
  }
}

/**
 * The results of a job's commands, those that have none filled in: the one `running` (an index,
 * or -1 for none) was stopped for `reason`, the later ones were not run.
 */
function withUnfinished(
  commands: string[],
  results: CommandResult[],
  running: number,
  reason: string,
  exitCode: number,
): CommandResult[] {
  return commands.map(
    (command, i) =>
      results[i] ?? {
        command,
        stdout: '',
        stderr: i === running ? `sandbox: ${reason}\n` : `sandbox: not run: ${reason}\n`,
        exitCode,
      },
  );
}
