// A verb's run, from what commander parsed to its exit code, as named steps: the options, --jq and
// --fields, --dry-run, the profile, the pager, the Context, the project's name, the run, and jq's
// end. cli.ts calls `runVerb`; each step stands alone and is tested alone (test/client/run-verb.test.ts).
import type { GlobalFlags } from '../config/settings.js';
import type { Context, Dependencies } from '../context.js';
import { fileFormatRefused, isFileFormat } from '../output/table-file.js';
import { ExitCode, IncompleteAnswerError, InterruptedError, UsageError } from '../errors.js';
import type { Paging } from '../output/pager.js';
import type { AnyVerb, BoundRun } from './verb.js';

/** What the runner is given: the verb, its own options as commander parsed them, the global flags. */
export interface VerbCall {
  verb: AnyVerb;
  input: Record<string, unknown>;
  flags: GlobalFlags;
  /** The command as typed, for messages: `contracts ls`. */
  path: string;
}

/** Runs one verb to its exit code; a failure is thrown for cli.ts to map. */
export async function runVerb(call: VerbCall, deps: Dependencies): Promise<number> {
  const { verb, flags, path } = call;
  const [ContextClass, run] = await Promise.all([loadContext(), checkAndLoad(call)]);
  refuseUnusedScripting(verb, flags, path);
  refuseDryRun(verb, flags, path);
  refuseFileFormat(verb, flags, path, deps.env);
  await checkProfile(verb, flags, deps.env);
  const paging = await openPaging(verb, flags, deps);
  let code: number = ExitCode.ok;
  try {
    const ctx = makeContext(ContextClass, verb, flags, deps, paging);
    await prepareScripting(ctx, flags);
    await ctx.resolveProjectName();
    code = await runToEnd(run, ctx);
  } catch (error) {
    // The reader quit the pager before the end: like a closed pipe, a quiet success.
    if (!paging?.quit) throw error;
  } finally {
    await paging?.close();
  }
  // Ctrl-C while the pager had the terminal: the run still ends as interrupted.
  if (paging && (deps.signal.aborted || paging.interrupted)) throw new InterruptedError();
  return code;
}

const loadContext = async () => (await import('../context.js')).Context;

/** The options checked against the definition while the verb's module loads. */
export async function checkAndLoad(call: Pick<VerbCall, 'verb' | 'input'>): Promise<BoundRun> {
  const { checkOptions } = await import('./check.js');
  return call.verb.prepare(async (def) => checkOptions(def, call.input));
}

/** --jq and --fields where the verb has no use for them: a usage error, not a silent no-op. */
export function refuseUnusedScripting(verb: AnyVerb, flags: GlobalFlags, path: string): void {
  for (const [flag, given] of [
    ['jq', flags.jq],
    ['fields', flags.fields],
  ] as const) {
    if (given !== undefined && !verb.scripting?.includes(flag)) {
      throw new UsageError(
        `--${flag} does not apply to \`${path}\`: ${flag === 'jq' ? 'it prints no JSON' : 'it prints no list or record'}`,
      );
    }
  }
}

/** xlsx and parquet on a verb that writes no file: refused before it runs. */
export function refuseFileFormat(verb: AnyVerb, flags: GlobalFlags, path: string, env: NodeJS.ProcessEnv): void {
  const format = (flags.format ?? (flags.json ? undefined : env.PDS_FORMAT))?.trim().toLowerCase();
  if (isFileFormat(format) && !verb.scripting?.includes('files')) throw fileFormatRefused(format, path);
}

/** --dry-run on a verb that would write anyway: refused before it runs. */
export function refuseDryRun(verb: AnyVerb, flags: GlobalFlags, path: string): void {
  if (flags.dryRun && typeof verb.dryRun === 'object')
    throw new UsageError(`--dry-run does not apply to \`${path}\`: ${verb.dryRun.none}`);
}

/** A profile named by PDS_PROFILE is checked as one named by --profile: a typo is not "not logged in". */
export async function checkProfile(verb: AnyVerb, flags: GlobalFlags, env: NodeJS.ProcessEnv): Promise<void> {
  const profile = flags.profile || env.PDS_PROFILE;
  if (profile && !verb.allowsNewProfile) (await import('../config/settings.js')).checkProfileExists(profile, env);
}

/** A `paged` verb's output goes through the pager on a terminal, unless --no-pager. */
export async function openPaging(
  verb: AnyVerb,
  flags: GlobalFlags,
  deps: Pick<Dependencies, 'io' | 'env'>,
): Promise<Paging | undefined> {
  if (!verb.paged || !deps.io.stdoutIsTTY || flags.pager === false) return undefined;
  return (await import('../output/pager.js')).openPager(deps.io, deps.env);
}

/** The Context the verb runs over: the pager's stream and its stop, when it pages. */
export function makeContext(
  ContextClass: typeof Context,
  verb: AnyVerb,
  flags: GlobalFlags,
  deps: Dependencies,
  paging: Paging | undefined,
): Context {
  const ctxDeps = paging ? { ...deps, io: paging.io, signal: AbortSignal.any([deps.signal, paging.signal]) } : deps;
  return new ContextClass(verb.replacesBrokenConfig ? { ...ctxDeps, corruptConfigAsEmpty: true } : ctxDeps, flags);
}

/** `--fields` and `--jq` are checked (a bad expression is exit 2) before the verb sends anything. */
export async function prepareScripting(ctx: Context, flags: GlobalFlags): Promise<void> {
  if (flags.fields !== undefined) ctx.output.fields = (await import('../output/fields.js')).parseFields(flags.fields);
  if (flags.jq !== undefined) {
    const { compileJq, jqTimeoutMs } = await import('../output/jq.js');
    ctx.output.jq = await compileJq(flags.jq, { timeoutMs: jqTimeoutMs(flags.jqTimeout), signal: ctx.signal });
  }
}

/** The run, its output written out, and jq's worker ended whatever happens; its exit code. */
export async function runToEnd(run: BoundRun, ctx: Context): Promise<number> {
  try {
    const code = await run(ctx).catch(async (error: unknown) => {
      // An incomplete answer was printed as far as it goes: its output is written before the error.
      if (error instanceof IncompleteAnswerError) await ctx.output.settled();
      throw error;
    });
    await ctx.output.settled();
    return typeof code === 'number' ? code : ExitCode.ok;
  } finally {
    ctx.output.jq?.close();
  }
}
