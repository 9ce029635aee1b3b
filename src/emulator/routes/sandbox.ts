// 4.11 Sandbox: a session per token and project, the workspace's files, and exec in a worker.
import { randomUUID } from 'node:crypto';
import { HttpError, notSaved, projectInScope, type Handler, type RouteContext, type Route } from '../http.js';
import { ExecBusyError, type ExecMode } from '../sandbox/runner.js';
import type { ProjectData, ProjectRecord } from '../store.js';
import { workspaceIdsFor } from '../sandbox/ids.js';
import { readWorkspacePath, workspaceFor, type Workspace } from '../sandbox/workspace.js';
import { errorReply, parseJsonObject, readBody } from '../request-body.js';

const MAX_EXEC_BODY_BYTES = 1024 * 1024;
/** Commands of one parallel request: each takes a thread of its own. */
const MAX_PARALLEL_COMMANDS = 32;

// Keyed by who asks, not by the token: a browser sign-in that refreshes its token keeps its sandbox.
const sessionKey = (ctx: RouteContext, projectId: string): string => `${ctx.principal}\u0000${projectId}`;

async function commitSession(ctx: RouteContext, key: string, id: string | null): Promise<void> {
  try {
    await ctx.commit([{ sandbox: key, id }]);
  } catch {
    throw notSaved('the sandbox session');
  }
}

const pathProject = (ctx: RouteContext) => projectInScope(ctx, ctx.params.project_id ?? '', 'project_id');

const connect: Handler = async (ctx) => {
  const project = pathProject(ctx);
  const key = sessionKey(ctx, project.id);
  // Connecting again keeps the session: a client that lost track of it is not punished.
  const existing = ctx.state.sandboxes[key];
  const sandboxId = existing ?? `sbx_${randomUUID().replaceAll('-', '')}`;
  if (existing === undefined) await commitSession(ctx, key, sandboxId);
  // Exec usually follows a connect: have a worker load just-bash meanwhile.
  ctx.sandbox.warm();
  return { body: { data: { sandboxId, status: 'connected' } } };
};

const disconnect: Handler = async (ctx) => {
  const project = pathProject(ctx);
  // Disconnecting twice is not an error: the sandbox is disconnected either way.
  const key = sessionKey(ctx, project.id);
  if (ctx.state.sandboxes[key] !== undefined) await commitSession(ctx, key, null);
  return { body: { data: { status: 'disconnected' } } };
};

/** The project of a connected sandbox; 400 before connect (docs/service.md, "Sandbox" leaves that error open). */
function connected(ctx: RouteContext): { project: ProjectRecord; data: ProjectData } {
  const project = pathProject(ctx);
  if (ctx.state.sandboxes[sessionKey(ctx, project.id)] === undefined) {
    throw new HttpError(400, 'sandbox not connected: POST /v1/projects/{project_id}/sandbox/connect first');
  }
  const data = ctx.state.data[project.id];
  if (!data) throw new HttpError(500, 'project data missing');
  return { project, data };
}

/** A connected sandbox's workspace, in the ids this emulator's API answers to (its flavor's). */
const workspaceOf = (ctx: RouteContext, { project, data }: ReturnType<typeof connected>): Promise<Workspace> =>
  workspaceFor(project, data, workspaceIdsFor(ctx.options));

const files: Handler = async (ctx) => {
  const connection = connected(ctx);
  const path = ctx.query.get('path');
  if (path === null) throw new HttpError(400, { path: ['path is required'] });
  const entry = readWorkspacePath(await workspaceOf(ctx, connection), path);
  if (!entry) throw new HttpError(404, `path not found: ${path}`);
  return { body: { data: entry } };
};

function commandsOf(body: Record<string, unknown>): string[] {
  const { commands } = body;
  if (commands === undefined)
    throw new HttpError(400, { commands: ['commands is required: an array of bash commands'] });
  if (!Array.isArray(commands) || !commands.every((c): c is string => typeof c === 'string')) {
    throw new HttpError(400, { commands: ['commands must be an array of strings'] });
  }
  if (commands.length === 0) throw new HttpError(400, { commands: ['commands must not be empty'] });
  return commands;
}

/** `mode`: "sequential" (the default) or "parallel", as the service's official client sends it. */
function modeOf(body: Record<string, unknown>, commands: string[]): ExecMode {
  const { mode = 'sequential' } = body;
  if (mode !== 'sequential' && mode !== 'parallel') {
    throw new HttpError(400, { mode: ['mode must be "sequential" or "parallel"'] });
  }
  if (mode === 'parallel' && commands.length > MAX_PARALLEL_COMMANDS) {
    throw new HttpError(400, { commands: [`a parallel request runs at most ${MAX_PARALLEL_COMMANDS} commands`] });
  }
  return mode;
}

const exec: Handler = async (ctx) => {
  const connection = connected(ctx);
  const type = (ctx.req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(400, 'Content-Type must be application/json');
  let raw: Awaited<ReturnType<typeof readBody>>;
  try {
    raw = await readBody(ctx.req, MAX_EXEC_BODY_BYTES, 'the request body exceeds 1 MiB');
  } catch (error) {
    if (error instanceof HttpError) return errorReply(error);
    throw error;
  }
  const body = parseJsonObject(raw);
  const commands = commandsOf(body);
  const mode = modeOf(body, commands);
  ctx.record.exec = { commands, mode };
  // A client that gives up frees its place in the queue, or its thread.
  const gone = new AbortController();
  ctx.res.once('close', () => gone.abort());
  try {
    const results = await ctx.sandbox.run(workspaceOf(ctx, connection), commands, {
      timeoutMs: ctx.options.sandboxTimeoutMs,
      mode,
      signal: gone.signal,
    });
    return { body: { data: results } };
  } catch (error) {
    if (error instanceof ExecBusyError) {
      throw new HttpError(429, 'the sandbox is busy: too many exec requests at once; retry later', {
        'retry-after': String(error.retryAfterSeconds),
      });
    }
    throw error;
  }
};

export const sandboxRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/projects/:project_id/sandbox/connect', handler: connect },
  { method: 'DELETE', pattern: '/v1/projects/:project_id/sandbox/disconnect', handler: disconnect },
  { method: 'GET', pattern: '/v1/projects/:project_id/sandbox/files', handler: files },
  { method: 'POST', pattern: '/v1/projects/:project_id/sandbox/exec', handler: exec },
];
