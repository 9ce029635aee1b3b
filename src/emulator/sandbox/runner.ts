// Runs exec commands in worker threads (program: ./worker.ts) with a hard time limit: just-bash
// stops a runaway script by itself a little before the limit, and the worker is terminated at the
// limit if something still runs, so no command can hold the server. A worker serves one request;
// the next one is started ahead (a spare), so loading just-bash is not on the request's path.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CommandResult, ExecRequest, WorkerMessage, WorkerSetup } from './protocol.js';
import { WORKER_SOURCE } from './worker.js';
import { packWorkspace, YAML_OPTIONS, type Workspace } from './workspace.js';

/** Heap of one exec worker: the workspace copy plus what the commands build in memory. */
const WORKER_HEAP_MB = 512;
/** An unused spare is ended after this long, so an idle emulator holds no thread. */
const SPARE_IDLE_MS = 60_000;
/** Exit status of a command stopped by the time limit, as timeout(1) reports it. */
const TIMED_OUT = 124;
/** Exit status of a command whose shell died (out of memory, internal error). */
const CRASHED = 125;

interface Job {
  worker: Worker;
  failure?: Error;
}

/** Resolved from this module, which lives in the package (src/ under tests, dist/ when built). */
function workerSetup(): WorkerSetup {
  const require = createRequire(import.meta.url);
  return { justBash: require.resolve('just-bash'), yaml: require.resolve('yaml') };
}

export class SandboxRunner {
  private spare: Job | undefined;
  private spareTimer: NodeJS.Timeout | undefined;

  /** Starts a worker ahead of the next request, if none is waiting. */
  warm(): void {
    if (this.spare) return;
    const job: Job = {
      worker: new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: workerSetup(),
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
        // Whatever the libraries print stays out of the emulator's own output.
        stdout: true,
        stderr: true,
      }),
    };
    // A waiting spare must not keep the process alive.
    job.worker.unref();
    job.worker.stdout.resume();
    job.worker.stderr.resume();
    job.worker.on('error', (error) => {
      job.failure = error;
    });
    job.worker.once('exit', () => {
      if (this.spare === job) this.spare = undefined;
    });
    this.spare = job;
    this.spareTimer = setTimeout(() => void job.worker.terminate(), SPARE_IDLE_MS).unref();
  }

  /**
   * Runs `commands` in order over a private copy of `workspace`, within `timeoutMs` in all.
   * Answers one result per command: a command running when the limit (or a crash) hit gets 124
   * (or 125), and each one that never ran the same status with a "not run" note.
   */
  run(workspace: Workspace, commands: string[], timeoutMs: number): Promise<CommandResult[]> {
    this.warm();
    const job = this.spare as Job;
    this.spare = undefined;
    clearTimeout(this.spareTimer);
    // Leave just-bash time to stop by itself, which keeps the output of the command it stops.
    const margin = Math.min(500, Math.floor(timeoutMs / 5));
    const request: ExecRequest = {
      workspace: packWorkspace(workspace),
      commands,
      deadline: Date.now() + timeoutMs - margin,
      yamlOptions: YAML_OPTIONS,
    };
    return new Promise((resolve) => {
      const results: CommandResult[] = [];
      let done = false;
      let killed = false;
      const timer = setTimeout(() => {
        killed = true;
        void job.worker.terminate();
      }, timeoutMs);
      job.worker.on('message', (message: WorkerMessage) => {
        if ('result' in message) results.push(message.result);
        else {
          done = true;
          void job.worker.terminate();
        }
      });
      job.worker.once('exit', () => {
        clearTimeout(timer);
        // The next request's worker loads while this answer travels.
        this.warm();
        const timedOut = killed || (done && results.length < commands.length);
        const reason = timedOut
          ? `timed out after ${timeoutMs} ms`
          : (job.failure as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? 'the shell ran out of memory'
            : `the shell stopped: ${job.failure?.message ?? 'unexpectedly'}`;
        // A worker that said it was done stopped between commands: none of the missing ones ran.
        const running = done ? -1 : results.length;
        resolve(
          commands.map(
            (command, i) =>
              results[i] ?? {
                command,
                stdout: '',
                stderr: i === running ? `sandbox: ${reason}\n` : `sandbox: not run: ${reason}\n`,
                exitCode: timedOut ? TIMED_OUT : CRASHED,
              },
          ),
        );
      });
      job.worker.postMessage(request);
    });
  }
}
