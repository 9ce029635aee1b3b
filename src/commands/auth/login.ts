import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import { updateProfile } from '../../lib/config.js';
import { createProjectsApi } from '../../lib/api/projects.js';
import { AuthError, UsageError } from '../../lib/errors.js';
import { describeScope, scopeOf } from './scope.js';

export const Options = z.object({
  args: z.tuple([]),
  withToken: z.optional(z.boolean()),
  token: z.optional(z.string()),
});

const HINT = 'pipe it in: `pds auth login --with-token < token.txt`, or pass --token <token>';

export async function run(opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  const token = await tokenFrom(opts, ctx);
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

  // Only an explicit --api-url is saved: a PDS_API_URL of this shell should not outlive it.
  const saveUrl = ctx.settings.apiUrlSource === 'flag';
  await updateProfile(ctx.env, profile, (stored) => ({ ...stored, token, ...(saveUrl ? { 'api-url': apiUrl } : {}) }));

  ctx.output.info(`Logged in to ${apiUrl} as ${describeScope(scopeOf(projects))} (profile ${profile})`);
  if (ctx.env.PDS_TOKEN && ctx.env.PDS_TOKEN !== token) {
    ctx.output.warn('PDS_TOKEN is set in this environment and is used instead of the saved token');
  }
}

async function tokenFrom(opts: z.infer<typeof Options>, ctx: Context): Promise<string> {
  if (opts.withToken && opts.token !== undefined) {
    throw new UsageError('give the token either with --with-token (stdin) or with --token, not both');
  }
  if (opts.token !== undefined) {
    ctx.output.warn('a token on the command line stays in the shell history; prefer --with-token');
    const token = opts.token.trim();
    if (token === '') throw new UsageError('--token is empty', { details: [HINT] });
    return checked(token);
  }
  // Without a flag a piped stdin is read as with --with-token; a terminal would just wait, so
  // that case (and --with-token on a terminal) is an error with the way to do it.
  if (ctx.io.stdinIsTTY) {
    throw new UsageError(opts.withToken ? '--with-token reads the token from stdin, which is a terminal' : 'no token given', {
      details: [HINT],
    });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  const token = Buffer.concat(chunks).toString('utf8').trim();
  if (token === '') throw new UsageError('no token on stdin', { details: [HINT] });
  return checked(token);
}

/** A bearer token is one word; anything else is a paste gone wrong (and an invalid header). */
function checked(token: string): string {
  if (/\s/.test(token)) throw new UsageError('the token contains whitespace', { details: [HINT] });
  return token;
}
