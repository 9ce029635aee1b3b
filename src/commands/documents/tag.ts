// `pds contracts|statements tag <id> <tags…>`: PUT /v1/tags takes the complete list, so --add and
// --remove read the record's current tags first and send the result; where the record does not
// show them, they are refused rather than guessed.
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import type { TagOptions } from './definitions.js';

export async function run(opts: TagOptions, ctx: Context): Promise<void> {
  const [id, given = []] = opts.args;
  const modes = [opts.add, opts.remove, opts.clear].filter(Boolean).length;
  if (modes > 1) throw new UsageError('--add, --remove and --clear exclude each other');
  const tags = [...new Set(given.map((tag) => tag.trim()))];
  if (opts.clear && tags.length > 0) throw new UsageError('--clear takes no tags');
  if (!opts.clear && tags.length === 0)
    throw new UsageError('name the tags to set (the complete list), or use --clear');
  const bad = tags.filter((tag) => tag === '' || tag.length > 64);
  if (bad.length > 0) throw new UsageError('each tag is 1 to 64 characters');
  const projectId = ctx.project();
  const scope = opts.kind === 'contract' ? 'contracts' : 'statements';
  let next = opts.clear ? [] : tags;
  if (opts.add || opts.remove) {
    const current = await currentTags(ctx, opts.kind, projectId, id, opts.add ? '--add' : '--remove');
    next = opts.add ? [...new Set([...current, ...tags])] : current.filter((tag) => !tags.includes(tag));
  }
  if (ctx.settings.dryRun) {
    ctx.output.info(
      `Would set the tags of ${opts.kind} ${id} to ${next.length === 0 ? 'none' : next.join(', ')}; nothing was sent (--dry-run)`,
    );
    return;
  }
  const result = await ctx.api.tags.put(
    projectId,
    scope,
    /^\d+$/.test(id) && opts.kind === 'statement' ? Number(id) : id,
    next,
  );
  await ctx.output.record(
    { resource_id: result.resource_id, scope: result.scope, tags: result.tags.map((t) => t.tag).join(',') },
    'resource_id',
  );
}

/**
 * The record's tags as the service has them now. A statement leaves out what it does not have, so
 * no `tags` is no tag; a contract without `tags` (the deployed service's never has them) is one whose
 * tags pds cannot know, and a change written over an unknown list would lose the rest of it.
 */
async function currentTags(
  ctx: Context,
  kind: 'contract' | 'statement',
  projectId: string,
  id: string,
  change: string,
): Promise<string[]> {
  const resource = kind === 'contract' ? 'contracts' : 'statements';
  const record = (await ctx.api.catalog.get(resource, projectId, id, {})) as Record<string, unknown>;
  const tags = record.tags;
  if (tags === undefined && kind === 'contract') {
    throw new UsageError(`${change} needs contract ${id}'s current tags, and this service does not show them`, {
      details: [
        'nothing was changed: give the complete list instead, which replaces its tags',
        `  pds contracts tag ${id} <every tag it should have>`,
      ],
    });
  }
  return Array.isArray(tags)
    ? tags.map((tag) => (typeof tag === 'string' ? tag : String((tag as { tag?: unknown }).tag ?? ''))).filter(Boolean)
    : [];
}
