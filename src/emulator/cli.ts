// `pds emulator start`: runs the emulator in the foreground until the signal (Ctrl-C) stops it.
// The first stdout line is a fixed format that scripts wait for and parse to find the port.
import type { EmulatorOptions } from './http.js';
import { startEmulator, type Emulator } from './server.js';

export interface CliStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

function describeStartError(error: unknown, options: EmulatorOptions): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const where = `${options.host}:${options.port}`;
  if (code === 'EADDRINUSE')
    return `cannot listen on ${where}: the address is already in use (try --port 0 for a free port)`;
  if (code === 'EACCES') return `cannot listen on ${where}: permission denied`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: no such local address`;
  return error instanceof Error ? error.message : String(error);
}

/** The tokens a user can try, and the projects each reaches. */
function banner(emulator: Emulator): string {
  const { state } = emulator;
  const lines: string[] = [];
  const organization = (id: string) => state.organizations.find((o) => o.id === id)?.name ?? id;
  const tokens = Object.entries(state.tokens);
  const width = Math.max(...tokens.map(([token]) => token.length));
  for (const [token, scope] of tokens) {
    const project = scope.project_id && state.projects.find((p) => p.id === scope.project_id);
    const reach = project
      ? `project: ${project.name} ${project.id}`
      : `organization: ${organization(scope.organization_id)}`;
    lines.push(`  token ${token.padEnd(width)}  (${reach})`);
  }
  const reachable = new Set(tokens.map(([, scope]) => scope.organization_id));
  for (const project of state.projects.filter((p) => reachable.has(p.organization_id))) {
    lines.push(`  project ${project.id}  ${project.name}`);
  }
  const data = emulator.options.dataFile;
  lines.push(data === undefined ? '  data in memory (lost at exit)' : `  data ${data} (${emulator.origin})`);
  const [first] = tokens;
  if (first) lines.push(`  try: PDS_API_URL=${emulator.url} PDS_TOKEN=${first[0]} pds projects ls`);
  return `${lines.join('\n')}\n`;
}

/**
 * Starts the emulator, prints where it listens and (unless quiet) what to try, serves until `signal` aborts, then
 * closes it and resolves 0. Resolves 1 (with `error: …` on stderr) when it cannot start.
 */
export async function serveFromCli(options: EmulatorOptions, out: CliStreams, signal: AbortSignal): Promise<number> {
  let emulator: Emulator;
  try {
    emulator = await startEmulator({ ...options, log: options.log ?? ((line) => out.stderr.write(`${line}\n`)) });
  } catch (error) {
    out.stderr.write(`error: ${describeStartError(error, options)}\n`);
    return 1;
  }
  // Quiet keeps the one line a script reads the address from (a --port 0 emulator's port).
  out.stdout.write(`pds emulator listening on ${emulator.url}\n`);
  if (!options.quiet) out.stdout.write(banner(emulator));
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await emulator.close();
  return 0;
}
