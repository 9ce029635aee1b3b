// The verb pipeline's steps (lib/verbs/run.ts), each alone, over the real definitions and modules.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';
import { Context, type Dependencies } from '../../src/lib/context.js';
import { ExitCode, UsageError } from '../../src/lib/errors.js';
import { memoryIO } from '../../src/lib/io.js';
import type { GlobalFlags } from '../../src/lib/config/settings.js';
import {
  checkAndLoad,
  checkProfile,
  makeContext,
  openPaging,
  prepareScripting,
  refuseDryRun,
  refuseUnusedScripting,
  runToEnd,
} from '../../src/lib/verbs/run.js';
import type { AnyVerb } from '../../src/lib/verbs/verb.js';
import { freshConfigDir, instantClock } from '../helpers/cli.js';

/** The definition of `pds <noun> <verb>` (or of a verb that stands alone). */
function verbAt(path: string): AnyVerb {
  const [first, second] = path.split(' ');
  for (const entry of COMMANDS) {
    if (entry.name !== first) continue;
    if (!('verbs' in entry)) return entry;
    const found = entry.verbs.find((verb) => verb.name === second);
    if (found) return found;
  }
  throw new Error(`no verb \`${path}\``);
}

const flags = (given: Partial<GlobalFlags> = {}): GlobalFlags => ({ ...given }) as GlobalFlags;

function deps(env: NodeJS.ProcessEnv = {}, tty = false): Dependencies {
  return {
    io: memoryIO({ tty }),
    env: { PDS_CONFIG_DIR: freshConfigDir(), ...env },
    signal: new AbortController().signal,
    clock: instantClock,
  };
}

/** The usage error a step throws, or undefined. */
async function refusal(step: () => unknown): Promise<{ message: string; exitCode: number } | undefined> {
  try {
    await step();
    return undefined;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { message: error.message, exitCode: error.exitCode };
  }
}

describe('the verb pipeline, step by step', () => {
  it('checks the options while the module loads: a bad value is a usage error naming the flag', async () => {
    const ls = verbAt('contracts ls');
    expect(await refusal(() => checkAndLoad({ verb: ls, input: { args: [], perPage: '500' } }))).toEqual({
      message: "invalid --per-page '500': expected a whole number from 1 to 100",
      exitCode: ExitCode.usage,
    });
    expect(typeof (await checkAndLoad({ verb: ls, input: { args: [], perPage: '50' } }))).toBe('function');
  });

  it('refuses --jq and --fields where the verb prints neither, and lets them through where it does', async () => {
    expect(
      await refusal(() => refuseUnusedScripting(verbAt('auth logout'), flags({ jq: '.' }), 'auth logout')),
    ).toEqual({ message: '--jq does not apply to `auth logout`: it prints no JSON', exitCode: ExitCode.usage });
    expect(
      await refusal(() => refuseUnusedScripting(verbAt('projects create'), flags({ fields: 'id' }), 'projects create')),
    ).toEqual({ message: '--fields does not apply to `projects create`: it prints no list or record', exitCode: 2 });
    expect(
      await refusal(() =>
        refuseUnusedScripting(verbAt('projects ls'), flags({ jq: '.', fields: 'id' }), 'projects ls'),
      ),
    ).toBeUndefined();
  });

  it('refuses --dry-run where the verb would act anyway, and only there', async () => {
    expect(await refusal(() => refuseDryRun(verbAt('sandbox exec'), flags({ dryRun: true }), 'sandbox exec'))).toEqual({
      message:
        '--dry-run does not apply to `sandbox exec`: the sandbox runs the commands; `pds sandbox ls` and `cat` only read',
      exitCode: ExitCode.usage,
    });
    expect(await refusal(() => refuseDryRun(verbAt('sandbox exec'), flags(), 'sandbox exec'))).toBeUndefined();
    expect(await refusal(() => refuseDryRun(verbAt('projects create'), flags({ dryRun: true }), 'x'))).toBeUndefined();
  });

  it('refuses a profile that does not exist, named by --profile or PDS_PROFILE, unless the verb makes one', async () => {
    const { env } = deps();
    const unknown = {
      message: "unknown profile 'nope'",
      exitCode: ExitCode.usage,
    };
    expect(await refusal(() => checkProfile(verbAt('projects ls'), flags({ profile: 'nope' }), env))).toEqual(unknown);
    expect(await refusal(() => checkProfile(verbAt('projects ls'), flags(), { ...env, PDS_PROFILE: 'nope' }))).toEqual(
      unknown,
    );
    expect(await refusal(() => checkProfile(verbAt('auth login'), flags({ profile: 'nope' }), env))).toBeUndefined();
  });

  it('opens no pager off a terminal, for a verb that is not paged, or under --no-pager', async () => {
    expect(await openPaging(verbAt('projects ls'), flags(), deps())).toBeUndefined();
    expect(await openPaging(verbAt('auth logout'), flags(), deps({}, true))).toBeUndefined();
    expect(await openPaging(verbAt('projects ls'), flags({ pager: false }), deps({}, true))).toBeUndefined();
  });

  it('makes the Context: a config file that is not JSON is empty only for a verb that writes a new one', () => {
    const base = deps();
    writeFileSync(join(base.env.PDS_CONFIG_DIR as string, 'config.json'), '{ not json', { mode: 0o600 });
    expect(makeContext(Context, verbAt('auth login'), flags(), base, undefined).settings.profile).toBe('default');
    expect(() => makeContext(Context, verbAt('projects ls'), flags(), base, undefined)).toThrow(/config/);
  });

  it('checks --fields and compiles --jq before the verb sends anything: a bad expression is exit 2', async () => {
    const ctx = makeContext(Context, verbAt('projects ls'), flags(), deps(), undefined);
    await prepareScripting(ctx, flags({ fields: 'id,name' }));
    expect(ctx.output.fields).toEqual(['id', 'name']);
    expect(ctx.output.jq).toBeUndefined();
    const bad = await refusal(() => prepareScripting(ctx, flags({ jq: '.[' })));
    expect(bad?.exitCode).toBe(ExitCode.usage);
  });

  it("ends with the verb's exit code (0 when it returns none), and ends jq's worker even when it fails", async () => {
    const ctx = makeContext(Context, verbAt('projects ls'), flags(), deps(), undefined);
    expect(await runToEnd(async () => undefined, ctx)).toBe(0);
    expect(await runToEnd(async () => 7, ctx)).toBe(7);
    await prepareScripting(ctx, flags({ jq: '.' }));
    const jq = ctx.output.jq;
    let closed = false;
    if (jq) {
      const close = jq.close.bind(jq);
      jq.close = () => {
        closed = true;
        close();
      };
    }
    await expect(
      runToEnd(async () => {
        throw new Error('the verb failed');
      }, ctx),
    ).rejects.toThrow('the verb failed');
    expect(closed).toBe(true);
  });
});
