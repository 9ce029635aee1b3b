// 4.11 Sandbox: a session per token and project, the workspace's files, and exec in a worker.
import { randomUUID } from 'node:crypto';
import { HttpError, projectInScope, type Handler, type RouteContext, type Route } from '../http.js';
import { SandboxRunner } from '../sandbox/runner.js';
import type { EmulatorState, ProjectData, ProjectRecord } from '../store.js';
import { readWorkspacePath, workspaceFor } from '../sandbox/workspace.js';
import { errorReply, parseJsonObject, readBody } from '../uploads.js';

const MAX_EXEC_BODY_BYTES = 1024 * 1024;

const runners = new WeakMap<EmulatorState, SandboxRunner>();

/** The exec runner of one emulator (its spare worker is what makes exec answer fast). */
function runner(state: EmulatorState): SandboxRunner {
  let found = runners.get(state);
  if (!found) {
    found = new SandboxRunner();
    runners.set(state, found);
  }
  return found;
}

const sessionKey = (ctx: RouteContext, projectId: string): string => `${ctx.token}\u0000${projectId}`;

const pathProject = (ctx: RouteContext) => projectInScope(ctx, ctx.params.project_id ?? '', 'project_id');

const connect: Handler = (ctx) => {
  const project = pathProject(ctx);
  const key = sessionKey(ctx, project.id);
  // Connecting again keeps the session: a client that lost track of it is not punished.
  const sandboxId = ctx.state.sandboxes[key] ?? `sbx_${randomUUID().replaceAll('-', '')}`;
  ctx.state.sandboxes[key] = sandboxId;
  ctx.save();
  // Exec usually follows a connect: have a worker load just-bash meanwhile.
  runner(ctx.state).warm();
  return { body: { data: { sandboxId, status: 'connected' } } };
};

const disconnect: Handler = (ctx) => {
  const project = pathProject(ctx);
  // Disconnecting twice is not an error: the sandbox is disconnected either way.
  delete ctx.state.sandboxes[sessionKey(ctx, project.id)];
  ctx.save();
  return { body: { data: { status: 'disconnected' } } };
};

/** The project of a connected sandbox; 400 before connect (SPEC 4.11 leaves that error open). */
function connected(ctx: RouteContext): { project: ProjectRecord; data: ProjectData } {
  const project = pathProject(ctx);
  if (ctx.state.sandboxes[sessionKey(ctx, project.id)] === undefined) {
    throw new HttpError(400, 'sandbox not connected: POST /v1/projects/{project_id}/sandbox/connect first');
  }
  const data = ctx.state.data[project.id];
  if (!data) throw new HttpError(500, 'project data missing');
  return { project, data };
}

const files: Handler = (ctx) => {
  const { project, data } = connected(ctx);
  const path = ctx.query.get('path');
  if (path === null) throw new HttpError(400, { path: ['path is required'] });
  const entry = readWorkspacePath(workspaceFor(project, data), path);
  if (!entry) throw new HttpError(404, `path not found: ${path}`);
  return { body: { data: entry } };
};

function commandsOf(body: Record<string, unknown>): string[] {
  const { commands } = body;
  if (commands === undefined) throw new HttpError(400, { commands: ['commands is required: an array of bash commands'] });
  if (!Array.isArray(commands) || !commands.every((c): c is string => typeof c === 'string')) {
    throw new HttpError(400, { commands: ['commands must be an array of strings'] });
  }
  if (commands.length === 0) throw new HttpError(400, { commands: ['commands must not be empty'] });
  return commands;
}

const exec: Handler = async (ctx) => {
  const { project, data } = connected(ctx);
  const type = (ctx.req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(400, 'Content-Type must be application/json');
  let raw;
  try {
    raw = await readBody(ctx.req, MAX_EXEC_BODY_BYTES, 'the request body exceeds 1 MiB');
  } catch (error) {
    if (error instanceof HttpError) return errorReply(error);
    throw error;
  }
  const commands = commandsOf(parseJsonObject(raw));
  const results = await runner(ctx.state).run(workspaceFor(project, data), commands, ctx.options.sandboxTimeoutMs);
  return { body: { data: results } };
};

export const sandboxRoutes: Route[] = [
  { method: 'POST', pattern: '/v1/projects/:project_id/sandbox/connect', handler: connect },
  { method: 'DELETE', pattern: '/v1/projects/:project_id/sandbox/disconnect', handler: disconnect },
  { method: 'GET', pattern: '/v1/projects/:project_id/sandbox/files', handler: files },
  { method: 'POST', pattern: '/v1/projects/:project_id/sandbox/exec', handler: exec },
];
