import type { Context } from '../../lib/context.js';
import { maskToken, type Settings, type Source } from '../../lib/config/settings.js';
import { AuthError, SIGN_IN_HINT, type PdsError } from '../../lib/errors.js';
import { unreachable } from '../../lib/auth/requests.js';
import type { Project } from '../../lib/schemas.js';
import { describeScope, scopeOf } from './scope.js';
import type { status } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';
import { projectLabel } from '../projects/view.js';

type Options = OptionsOf<typeof status>;

export async function run(_opts: Options, ctx: Context): Promise<number> {
  const { settings } = ctx;
  const { token } = settings;
  if (!token) {
    if (settings.keychainProblem) throw settings.keychainProblem;
    throw new AuthError(`not logged in (profile ${settings.profile})`, {
      details: [SIGN_IN_HINT],
    });
  }
  const tokenFrom = from('token', settings.tokenSource ?? 'profile', settings);
  // Out of reach, the service cannot say what the token reaches, but what is stored is still
  // worth showing (and is what the user asked about): exit 1 after it.
  let projects: Project[] | undefined;
  let silence: PdsError | undefined;
  try {
    projects = await ctx.api.projects.list();
  } catch (error) {
    if (unreachable(error)) silence = error as PdsError;
    else if (error instanceof AuthError) {
      // The details name the token's source already (the HTTP client adds it to every 401).
      throw new AuthError(`${settings.apiUrl} rejected the token: ${error.message}`, {
        details: error.details,
        ...(error.status === undefined ? {} : { status: error.status }),
      });
    } else throw error;
  }
  const scope = projects && scopeOf(projects);
  const project = settings.project?.toLowerCase();
  const defaultProject = project === undefined ? undefined : projects?.find((p) => p.id === project);
  // A refresh during the request above moved the expiry: show the one in force now.
  const oauth = ctx.oauthSession?.credentials;
  const code = silence ? 1 : 0;
  if (silence) ctx.output.warn(`the service did not answer (${silence.message}); showing what is stored`);

  // -q: the exit code is the answer (`pds auth status -q && …`).
  if (ctx.output.mode === 'ids') return code;
  // One set of keys in every format: data formats get the facts, the human form says them in words.
  const data: Record<string, unknown> = {
    profile: settings.profile,
    api_url: settings.apiUrl,
    api_url_source: settings.apiUrlSource,
    credential: oauth ? 'oauth' : 'token',
    issuer: oauth?.issuer ?? null,
    expires_at: oauth?.expires_at ?? null,
    token: maskToken(oauth?.access_token ?? token),
    token_source: settings.tokenSource ?? 'profile',
    stored_in: settings.storedIn ?? null,
    reachable: silence === undefined,
    scope: scope ?? null,
    default_project:
      project === undefined
        ? null
        : { id: project, name: defaultProject?.name ?? null, source: settings.projectSource ?? 'profile' },
  };
  ctx.output.checkFields(Object.keys(data), 'auth status');
  if (ctx.output.isData || ctx.output.jq) {
    await ctx.output.record(data);
    return code;
  }
  const reach = projects ? 'not reachable with this token' : 'reach not known: the service did not answer';
  const projectText =
    project === undefined
      ? 'none (set one with `pds use <project>`)'
      : `${defaultProject ? `${projectLabel(defaultProject)} (${project})` : `${project} (${reach})`}, ${from('project', settings.projectSource ?? 'profile', settings)}`;
  const record: Record<string, string> = {
    profile: settings.profile,
    api_url: `${settings.apiUrl}, ${from('api-url', settings.apiUrlSource, settings)}`,
    credential: oauth ? `browser sign-in at ${oauth.issuer}` : 'API token',
    token: `${data.token as string}, ${tokenFrom}`,
    ...(settings.storedIn === undefined ? {} : { stored_in: settings.storedIn }),
  };
  if (oauth)
    record.expires_at =
      oauth.expires_at === undefined
        ? 'not said by the server'
        : describeExpiry(oauth.expires_at, ctx.clock.now(), oauth.refresh_token !== undefined);
  record.scope = scope ? describeScope(scope) : 'not known (the service did not answer)';
  record.default_project = projectText;
  await ctx.output.record(record);
  return code;
}

function describeExpiry(expiresAt: string, now: number, refreshable: boolean): string {
  const minutes = Math.round((Date.parse(expiresAt) - now) / 60_000);
  const when = minutes >= 0 ? `in ${minutes} min` : `${-minutes} min ago`;
  return `${expiresAt} (${when}${refreshable ? ', refreshed as needed' : ''})`;
}

const ENV_NAMES = { 'api-url': 'PDS_API_URL', project: 'PDS_PROJECT', token: 'PDS_TOKEN' } as const;
const FLAG_NAMES = { 'api-url': '--api-url', project: '--project', token: '--token' } as const;

function from(key: keyof typeof ENV_NAMES, source: Source, settings: Settings): string {
  if (source === 'env')
    return `from ${(key !== 'project' && settings.royaltyportEnv?.[key === 'api-url' ? 'apiUrl' : 'token']) || ENV_NAMES[key]}`;
  if (source === 'flag') return `from ${FLAG_NAMES[key]}`;
  if (source === 'profile') return `from profile ${settings.profile}`;
  return 'built-in default';
}
