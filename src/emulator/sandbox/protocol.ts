// What the server and the exec worker (program: ./worker.ts) send each other.
import type { PackedWorkspace, YAML_OPTIONS } from './workspace.js';

/** The worker's `workerData`: absolute paths of its modules, as its code has no location to resolve them from. */
export interface WorkerSetup {
  justBash: string;
  yaml: string;
}

/** The one request a worker serves, posted once it is needed. */
export interface ExecRequest {
  /** The workspace; a directory's files appear when a command first touches it, YAML when read. */
  workspace: PackedWorkspace;
  commands: string[];
  /** Epoch milliseconds by which just-bash must have stopped on its own (before the hard kill). */
  deadline: number;
  yamlOptions: typeof YAML_OPTIONS;
  /** What the commands may write to the in-memory file system, in bytes (the workspace comes on top). */
  fileSystemBytes: number;
}

export interface CommandResult {
  command: string;
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** From the worker: each command's result in order, then `done` (also when time ran out first). */
export type WorkerMessage = { result: CommandResult } | { done: true };
