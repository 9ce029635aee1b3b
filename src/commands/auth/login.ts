import type { Context } from '../../lib/context.js';
import { readProfile, updateProfile, type OAuthCredentials, type Profile } from '../../lib/config/profiles.js';
import { createProjectsApi } from '../../lib/api/projects.js';
import { AuthError, InterruptedError, PdsError, UsageError } from '../../lib/errors.js';
import { describeScope, scopeOf } from './scope.js';
import type { Project } from '../../lib/schemas.js';
import type { login } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';
import { projectLabel } from '../projects/view.js';

type Options = OptionsOf<typeof login>;

/** The most of stdin `--with-token` reads. */
const MAX_TOKEN_BYTES = 64 * 1024;

const HINT =
  'pipe a token in: `pds auth login --with-token < token.txt`, or sign in with a browser: `pds auth login --web`';

export async function run(opts: Options, ctx: Context): Promise<void> {
  const wantsWeb =
    opts.web === true || opts.browser === false || opts.oauthIssuer !== undefined || opts.clientId !== undefined;
  const wantsToken = opts.withToken === true || opts.token !== undefined;
  if (wantsWeb && wantsToken) {
    throw new UsageError('sign in either with a browser (--web) or with a token (--with-token, --token), not both');
  }
  if (!wantsWeb && !wantsToken && ctx.io.stdinIsTTY && ctx.io.stderrIsTTY) {
    const way = await ask(ctx, 'web-or-paste');
    if (way === 'web') return webLogin(opts, ctx);
    return tokenLogin(checked(await ask(ctx, 'token')), ctx, opts);
  }
  if (wantsWeb) return webLogin(opts, ctx);
  return tokenLogin(await tokenFrom(opts, ctx), ctx, opts);
}

/** Checks a token against the service and stores it in place of any credential of the profile. */
async function tokenLogin(token: string, ctx: Context, opts: Options): Promise<void> {
  const { apiUrl, profile } = ctx.settings;
  const projects = await createProjectsApi(ctx.http({ token, apiUrl }))
    .list()
    .catch((error: unknown) => {
      if (!(error instanceof AuthError)) throw error;
      throw new AuthError(`${apiUrl} rejected the token: ${error.message}`, {
        details: ['nothing was saved; check the token and try again'],
        ...(error.status === undefined ? {} : { status: error.status }),
      });
    });
  const replaced = await store(ctx, { token }, opts);
  ctx.output.info(`Logged in to ${apiUrl} as ${describeScope(scopeOf(projects))} (profile ${profile})`);
  await nextStep(ctx, projects);
  await revokeReplaced(ctx, replaced);
  if (ctx.env.PDS_TOKEN && ctx.env.PDS_TOKEN !== token) {
    ctx.output.warn('PDS_TOKEN is set in this environment and is used instead of the saved token');
  }
}

async function webLogin(opts: Options, ctx: Context): Promise<void> {
  const { apiUrl, profile } = ctx.settings;
  const { webLogin: signIn } = await import('../../lib/auth/web-login.js');
  const registered = readProfile(ctx.env, profile, { corruptAsEmpty: true }).oauth_client;
  // A client registered by this sign-in is stored with its credentials, once it succeeds: a sign-in
  // that fails or is cancelled (Ctrl-C while waiting for the browser) leaves the config as it was.
  let registeredNow: Profile['oauth_client'];
  // --no-browser: the address the browser ended on may be pasted (a browser on another machine).
  const pasting =
    opts.browser === false
      ? (await import('node:readline')).createInterface({ input: ctx.io.stdin, terminal: false })
      : undefined;
  try {
    await signIn(ctx.oauthRequests(), {
      ...(pasting ? { pasted: pasting } : {}),
      apiUrl,
      ...(opts.oauthIssuer === undefined ? {} : { issuer: opts.oauthIssuer }),
      ...(opts.clientId === undefined ? {} : { clientId: opts.clientId }),
      ...(registered === undefined ? {} : { registered }),
      keepClient: async (client) => {
        registeredNow = { ...client };
      },
      noBrowser: opts.browser === false,
      env: ctx.env,
      signal: ctx.signal,
      now: () => ctx.clock.now(),
      // The URL to open must reach the user even under -q: it is the only way on.
      say: (line) => ctx.output.writeErr(`${line}\n`),
      complete: async (credentials: OAuthCredentials) => {
        const projects = await createProjectsApi(ctx.http({ token: credentials.access_token, apiUrl }))
          .list()
          .catch((error: unknown) => {
            if (!(error instanceof AuthError)) throw error;
            throw new AuthError(`${apiUrl} refused the access token of the new sign-in: ${error.message}`, {
              details: ['nothing was saved; is --oauth-issuer the authorization server of this service?'],
            });
          });
        const replaced = await store(
          ctx,
          { oauth: credentials, ...(registeredNow ? { oauth_client: registeredNow } : {}) },
          opts,
        );
        const scope = describeScope(scopeOf(projects));
        ctx.output.info(`Logged in to ${apiUrl} as ${scope} through the browser (profile ${profile})`);
        await nextStep(ctx, projects);
        await revokeReplaced(ctx, replaced);
        if (ctx.env.PDS_TOKEN)
          ctx.output.warn('PDS_TOKEN is set in this environment and is used instead of the browser sign-in');
        return `pds is signed in to ${apiUrl} as ${scope}. You can close this tab.`;
      },
    });
  } finally {
    pasting?.close();
  }
}

/**
 * The step after signing in, when the profile has no project yet: the only project the token
 * reaches becomes the default (said so); with several, the command that picks one.
 */
async function nextStep(ctx: Context, projects: readonly Project[]): Promise<void> {
  const { profile } = ctx.settings;
  // Only the project is read here: a keychain that cannot be read now does not fail the login.
  if (readProfile(ctx.env, profile, { keychainUnreadableAsEmpty: true }).project !== undefined) return;
  const [only] = projects;
  if (projects.length === 1 && only) {
    await updateProfile(ctx.env, profile, (stored) => ({ ...stored, project: only.id }));
    ctx.output.info(`Using project ${projectLabel(only)} (${only.id}), the only one this token reaches`);
  } else if (projects.length > 1) {
    ctx.output.info(
      `Next: choose a project with \`pds use <name>\` (\`pds projects ls\` lists the ${projects.length})`,
    );
  }
}

/**
 * Stores a new credential in place of the profile's (a profile holds one at a time); returns the
 * browser sign-in it replaced, if any.
 */
async function store(
  ctx: Context,
  credential: Pick<Profile, 'token' | 'oauth' | 'oauth_client'>,
  opts: Options,
): Promise<OAuthCredentials | undefined> {
  let replaced: OAuthCredentials | undefined;
  await updateProfile(
    ctx.env,
    ctx.settings.profile,
    ({ token: _token, oauth, credential_store: _store, ...rest }) => {
      replaced = oauth;
      // The keychain unless told otherwise; config.ts falls back to the file when there is none.
      return {
        ...rest,
        ...credential,
        ...savedUrl(ctx),
        ...(opts.insecureStorage ? {} : { credential_store: 'keychain' as const }),
      };
    },
    {
      movedAside: (aside, problem) =>
        ctx.output.warn(`${problem.message}: moved it to ${aside}; logging in writes a new one`),
    },
    (line) => ctx.output.warn(line),
  );
  return replaced;
}

/** A replaced browser sign-in would stay valid at the server: revoke it there, as logout does. */
async function revokeReplaced(ctx: Context, replaced: OAuthCredentials | undefined): Promise<void> {
  if (!replaced) return;
  const { revoke } = await import('../../lib/auth/session.js');
  await revoke(ctx.oauthRequests(), replaced).catch((error: unknown) => {
    if (error instanceof InterruptedError || !(error instanceof PdsError)) throw error;
    ctx.output.warn(`could not revoke the previous browser sign-in: ${error.message}`);
  });
}

/** Only an explicit --api-url is saved: a PDS_API_URL of this shell should not outlive it. */
function savedUrl(ctx: Context): Profile {
  return ctx.settings.apiUrlSource === 'flag' ? { 'api-url': ctx.settings.apiUrl } : {};
}

/** The questions of an interactive login, with a well-kept prompt library on stderr. */
async function ask(ctx: Context, question: 'web-or-paste'): Promise<'web' | 'paste'>;
async function ask(ctx: Context, question: 'token'): Promise<string>;
async function ask(ctx: Context, question: 'web-or-paste' | 'token'): Promise<string> {
  const context = { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal, clearPromptOnDone: false };
  try {
    if (question === 'web-or-paste') {
      const { default: select } = await import('@inquirer/select');
      return await select(
        {
          message: `How do you want to sign in to ${ctx.settings.apiUrl}?`,
          choices: [
            { name: 'With a web browser', value: 'web' },
            { name: 'Paste an API token', value: 'paste' },
          ],
        },
        context,
      );
    }
    const { default: password } = await import('@inquirer/password');
    // No mask: nothing of the token is echoed, not even its length.
    return await password(
      { message: 'Paste your API token:', validate: (value) => value.trim() !== '' || 'the token is empty' },
      context,
    );
  } catch (error) {
    // Ctrl-C in a prompt (ExitPromptError) or an abort of the run (AbortPromptError).
    if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError'))
      throw new InterruptedError();
    throw error;
  }
}

async function tokenFrom(opts: Options, ctx: Context): Promise<string> {
  if (opts.withToken && opts.token !== undefined) {
    throw new UsageError('give the token either with --with-token (stdin) or with --token, not both');
  }
  if (opts.token !== undefined) {
    ctx.output.warn('a token on the command line stays in the shell history; prefer --with-token');
    const token = opts.token.trim();
    if (token === '') throw new UsageError('--token is empty', { details: [HINT] });
    return checked(token);
  }
  // Without a flag a piped stdin is read as with --with-token. Without a terminal to ask on, pds
  // never prompts: the error names both ways to sign in.
  if (ctx.io.stdinIsTTY) {
    throw new UsageError(
      opts.withToken
        ? '--with-token reads the token from stdin, which is a terminal'
        : 'no token given, and no terminal to ask on',
      {
        details: [HINT],
      },
    );
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of ctx.io.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
    bytes += chunks[chunks.length - 1]!.length;
    // A token is a few hundred bytes: a file or a stream piped here by mistake is not read to its end.
    if (bytes > MAX_TOKEN_BYTES) {
      throw new UsageError(`stdin holds more than ${MAX_TOKEN_BYTES / 1024} KiB, which is no token; nothing was sent`, {
        details: [HINT],
      });
    }
  }
  const token = Buffer.concat(chunks).toString('utf8').trim();
  if (token === '') throw new UsageError('no token on stdin', { details: [HINT] });
  return checked(token);
}

/** A bearer token is one word; anything else is a paste gone wrong (and an invalid header). */
function checked(token: string): string {
  const trimmed = token.trim();
  if (/\s/.test(trimmed)) throw new UsageError('the token contains whitespace', { details: [HINT] });
  return trimmed;
}
