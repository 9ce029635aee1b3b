// What every route handler of the emulator works with: the request context, the error it throws,
// and the shared checks of docs/service.md, "Two forms" (projectId, token scope, paging).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecLimits, SandboxRunner } from './sandbox/runner.js';
import type { EmulatorState, ProjectData, ProjectRecord, StateChange, TokenScope } from './store.js';
import type { Storage } from './storage.js';

export interface EmulatorOptions {
  port: number;
  host: string;
  /** JSON file that persists the state across restarts; in memory when undefined. */
  dataFile?: string;
  /** Multiplies the size of the seeded catalog. */
  scale: number;
  /** The demo project's statements replaced by this many processed ones of this many lines each. */
  manyStatements?: { count: number; lines: number };
  /** Every lines export served as its header and its rows repeated to about this many bytes (the bench's large export). */
  exportBytes?: number;
  /** Delay added before every response, in milliseconds. */
  latencyMs: number;
  /** Share of requests (0..1) answered 503 with Retry-After. */
  failRate: number;
  /** Seed of the pseudo-random choices (fault injection). */
  seed: number;
  /** Requests per token per minute (per rateWindowMs when set); 0 means unlimited. */
  rateLimit: number;
  /** The rate limit's window, in milliseconds (default 60 000): tests run a limit of a few a second. */
  rateWindowMs?: number;
  /** Duration of one processing step of an upload, in milliseconds. */
  processingMs: number;
  /** No request log on stderr. */
  quiet: boolean;
  /** Where request log lines go (default: process.stderr). */
  log?: (line: string) => void;
  /** Hard time limit of one sandbox exec request, in milliseconds. */
  sandboxTimeoutMs: number;
  /**
   * Answer in the drifted forms a deployed service is known to use (docs/service.md, "Tolerance"): every
   * catalog list in the paged envelope (the project list stays an array), search as an object
   * keyed by resource type with ranks, statement processes as `extraction_done`/`extraction_processes`.
   */
  drift: boolean;
  /** Lifetime of a signed download URL, in seconds. */
  urlTtlSeconds: number;
  /** Serve the download endpoints (a service without them answers 404). */
  downloads?: boolean;
  /** Lifetime of the access tokens the OAuth server issues, in seconds. */
  tokenTtlSeconds: number;
  /** Bounds of sandbox exec (threads, queue, output, memory); the defaults when left out. */
  execLimits?: Partial<ExecLimits>;
  /** With dataFile: the journal size that triggers a new snapshot (default 4 MiB). */
  journalCompactBytes?: number;
  /** How many recent requests `Emulator.requests` keeps (default 1000). */
  requestLogSize?: number;
  /**
   * Which service the emulator plays (default `deployed`):
   * - `deployed`: the service as deployed (docs/service.md, "Records"): numeric ids, every list paged, contracts named by file with `extractions`, and the
   *   drifted forms of `drift` throughout.
   * - `current`: the spec form for reads, with the deployed service's additions beside
   *   them (signed-URL uploads, tags, knowledge…). The test suite's default (test/helpers/emulator.ts).
   * - `seed`: the spec form only (no signed-URL uploads, tags…).
   */
  flavor?: Flavor;
  /** New uploads go `paused` at completion, with a reason, until retried with this off. */
  pauseUploads?: boolean;
}

export const FLAVORS = ['deployed', 'current', 'seed'] as const;
export type Flavor = (typeof FLAVORS)[number];

/** Whether a request is answered in the deployed service's forms (docs/service.md, "Records"). */
export const deployedForms = (options: Pick<EmulatorOptions, 'flavor'>): boolean =>
  (options.flavor ?? 'deployed') === 'deployed';

/** Whether the drifted forms apply: asked for with --drift, or implied by the deployed flavor. */
export const driftedForms = (options: Pick<EmulatorOptions, 'flavor' | 'drift'>): boolean =>
  options.drift || deployedForms(options);

/** Why --pause-uploads pauses an upload: the reason the service gives when its quota is reached. */
export const PAUSE_REASON = 'the project has reached its processing quota; retry when uploads are resumed';

/** A field-level 400 (docs/service.md, "Two forms") when any field has a problem. */
export function fieldErrors(errors: Record<string, string[]>): void {
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
}

/** What the emulator received: tests assert on it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** When it arrived (epoch ms): tests read what overlapped. */
  at: number;
  status?: number;
  /** Filled by the upload routes: what the upload carried. */
  upload?: { fileName: string; size: number; extractions?: string[]; form: 'multipart' | 'json' };
  /** Filled by sandbox exec: the commands and how they were to run. */
  exec?: { commands: string[]; mode: 'sequential' | 'parallel' };
}

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  token: string;
  /** Who asks, across token refreshes: a static token itself, or the OAuth grant of an access token. */
  principal: string;
  scope: TokenScope;
  state: EmulatorState;
  options: EmulatorOptions;
  record: RecordedRequest;
  /** Runs sandbox exec commands within the emulator's bounds. */
  sandbox: SandboxRunner;
  /**
   * Makes changes durable (with --data: appended to the journal and fsynced), then applies them
   * to the state. Rejects, applying nothing, when they cannot be written: answer 500 then.
   */
  commit(changes: StateChange[]): Promise<void>;
  /** Snapshots the whole state (no-op without --data), for changes made in place. Prefer commit. */
  save(): void;
  /** Milliseconds since the epoch; one clock for the whole emulator. */
  now(): number;
  /** The storage host of the download endpoints' signed URLs. */
  storage?: Storage;
}

/** A JSON reply; a handler that streams (SSE) writes to ctx.res itself and returns undefined. */
export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => Promise<Reply | undefined> | Reply | undefined;

/** One entry of the route table; routes/*.ts export theirs and server.ts serves them all. */
export interface Route {
  method: string;
  /** Path pattern with `:name` segments, e.g. `/v1/entities/:id`. */
  pattern: string;
  handler: Handler;
}

/** Thrown by handlers; becomes `{"error": {"message": …}}` or `{"error": {field: [..]}}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | Record<string, string[]>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }

  body(): { error: Record<string, string | string[]> } {
    return { error: typeof this.detail === 'string' ? { message: this.detail } : this.detail };
  }
}

/** What a client is told when a change could not be made durable: it was not kept either. */
export const notSaved = (what: string): HttpError =>
  new HttpError(500, `could not save ${what}; nothing was kept, retry later`);

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_RE.test(value);

/** The project a request may touch: 404 outside the token's organization, 403 outside its scope. */
export function projectInScope(ctx: RouteContext, projectId: string, field = 'projectId'): ProjectRecord {
  if (!isUuid(projectId)) throw new HttpError(400, { [field]: [`${field} must be a valid UUID`] });
  // UUIDs compare without regard to case.
  const project = ctx.state.projects.find((p) => p.id === projectId.toLowerCase());
  if (!project || project.organization_id !== ctx.scope.organization_id) {
    throw new HttpError(404, 'project not found');
  }
  if (ctx.scope.project_id && ctx.scope.project_id !== project.id) {
    throw new HttpError(403, 'token does not have access to this project');
  }
  return project;
}

/** The required `projectId` query parameter, checked and resolved. */
export function queryProject(ctx: RouteContext): { project: ProjectRecord; data: ProjectData } {
  const projectId = ctx.query.get('projectId');
  if (projectId === null || projectId === '') {
    throw new HttpError(400, { projectId: ['projectId is required'] });
  }
  if (!isUuid(projectId)) throw new HttpError(400, { projectId: ['projectId must be a valid UUID'] });
  // UUIDs compare without regard to case.
  const project = ctx.state.projects.find((p) => p.id === projectId.toLowerCase());
  // A project of another organization is indistinguishable from one the token may not touch.
  if (!project || project.organization_id !== ctx.scope.organization_id) {
    throw new HttpError(403, 'token does not have access to this project');
  }
  if (ctx.scope.project_id && ctx.scope.project_id !== project.id) {
    throw new HttpError(403, 'token does not have access to this project');
  }
  const data = ctx.state.data[project.id];
  if (!data) throw new HttpError(500, 'project data missing');
  return { project, data };
}

/** `page` ≥ 1 (default 1) and `perPage` 1..100 (default 20), per docs/service.md, "Two forms". */
export function paging(ctx: RouteContext): { page: number; perPage: number } {
  const errors: Record<string, string[]> = {};
  const read = (name: string, fallback: number, max?: number): number => {
    const raw = ctx.query.get(name);
    if (raw === null || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1 || (max !== undefined && value > max)) {
      errors[name] = [
        max === undefined ? `${name} must be an integer ≥ 1` : `${name} must be an integer from 1 to ${max}`,
      ];
    }
    return value;
  };
  const page = read('page', 1);
  const perPage = read('perPage', 20, 100);
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  return { page, perPage };
}

/** A boolean-like flag: the string `true` turns it on. */
export const flag = (ctx: RouteContext, name: string): boolean => ctx.query.get(name) === 'true';
