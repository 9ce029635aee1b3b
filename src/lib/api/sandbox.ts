// The sandbox of a project (docs/service.md, "Sandbox"): a session, a file-system view, and bash commands run in it.
import * as z from 'zod/mini';
import type { HttpClient } from '../http/client.js';
import * as schemas from '../schemas.js';

export type SandboxSession = z.infer<typeof schemas.SandboxSession>;
export type SandboxDisconnected = z.infer<typeof schemas.SandboxDisconnected>;

const ExecResults = z.array(schemas.ExecResult);

export function createSandboxApi(http: HttpClient) {
  const base = (projectId: string) => `/v1/projects/${encodeURIComponent(projectId)}/sandbox`;
  return {
    /** Connecting twice leaves one session, so a lost answer may be asked again. */
    connect(projectId: string): Promise<SandboxSession> {
      return http.data({ method: 'POST', path: `${base(projectId)}/connect`, retry: true }, schemas.SandboxSession);
    },

    disconnect(projectId: string): Promise<SandboxDisconnected> {
      return http.data(
        { method: 'DELETE', path: `${base(projectId)}/disconnect`, retry: true },
        schemas.SandboxDisconnected,
      );
    },

    /** A directory's entries (sub-directories end with `/`) or a file's content. */
    files(projectId: string, path: string): Promise<schemas.SandboxFile> {
      return http.data({ path: `${base(projectId)}/files`, query: { path } }, schemas.SandboxFile);
    },

    /**
     * Runs the commands in order (or, parallel, at once), one result per command. Never resent: a request that failed on
     * the way back may already have run commands, and a command may write files. An abort through
     * `signal` is the caller's to explain (the HTTP layer reports it as a timeout).
     */
    exec(
      projectId: string,
      commands: readonly string[],
      options: { signal?: AbortSignal; parallel?: boolean } = {},
    ): Promise<schemas.ExecResult[]> {
      return http.data(
        {
          method: 'POST',
          path: `${base(projectId)}/exec`,
          // Parallel: each command in a sandbox of its own, at once; results still in command order.
          json: options.parallel ? { commands, mode: 'parallel' } : { commands },
          retry: false,
          ...(options.signal ? { signal: options.signal } : {}),
        },
        ExecResults,
      );
    },
  };
}

export type SandboxApi = ReturnType<typeof createSandboxApi>;
