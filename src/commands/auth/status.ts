import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import { maskToken, type Settings, type Source } from '../../lib/config.js';
import { AuthError } from '../../lib/errors.js';
import { describeScope, scopeOf } from './scope.js';

export const Options = z.object({ args: z.tuple([]) });

export async function run(_opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  const { settings } = ctx;
  const { token } = settings;
  if (!token) {
    throw new AuthError(`not logged in (profile ${settings.profile})`, {
      details: ['run `pds auth login --with-token` or set PDS_TOKEN'],
    });
  }
  const projects = await ctx.api.projects.list().catch((error: unknown) => {
    if (!(error instanceof AuthError)) throw error;
    const source = from('token', settings.tokenSource ?? 'profile', settings);
    throw new AuthError(`${settings.apiUrl} rejected the token (${source}): ${error.message}`, {
      details: error.details,
      ...(error.status === undefined ? {} : { status: error.status }),
    });
  });
  const scope = scopeOf(projects);
  const project = settings.project?.toLowerCase();
  const defaultProject = project === undefined ? undefined : projects.find((p) => p.id === project);

  // -q: the exit code is the answer (`pds auth status -q && …`).
  if (ctx.output.mode === 'ids') return;
  if (ctx.output.mode === 'json') {
    ctx.output.json({
      profile: settings.profile,
      api_url: settings.apiUrl,
      api_url_source: settings.apiUrlSource,
      token: maskToken(token),
      token_source: settings.tokenSource ?? 'profile',
      scope,
      default_project:
        project === undefined
          ? null
          : { id: project, name: defaultProject?.name ?? null, source: settings.projectSource ?? 'profile' },
    });
    return;
  }
  const projectText =
    project === undefined
      ? 'none (set one with `pds use <project>`)'
      : `${defaultProject ? `${defaultProject.name} (${project})` : `${project} (not reachable with this token)`}, ${from('project', settings.projectSource ?? 'profile', settings)}`;
  await ctx.output.record({
    profile: settings.profile,
    'api-url': `${settings.apiUrl}, ${from('api-url', settings.apiUrlSource, settings)}`,
    token: `${maskToken(token)}, ${from('token', settings.tokenSource ?? 'profile', settings)}`,
    scope: describeScope(scope),
    project: projectText,
  });
}

const ENV_NAMES = { 'api-url': 'PDS_API_URL', project: 'PDS_PROJECT', token: 'PDS_TOKEN' } as const;
const FLAG_NAMES = { 'api-url': '--api-url', project: '--project', token: '--token' } as const;

function from(key: keyof typeof ENV_NAMES, source: Source, settings: Settings): string {
  if (source === 'env') return `from ${(key !== 'project' && settings.royaltyportEnv?.[key === 'api-url' ? 'apiUrl' : 'token']) || ENV_NAMES[key]}`;
  if (source === 'flag') return `from ${FLAG_NAMES[key]}`;
  if (source === 'profile') return `from profile ${settings.profile}`;
  return 'built-in default';
}
