// `pds statements update <id>`: PUT /v1/statements/{id} with the fields given; `--clear-<field>`
// sends null. Periods and currencies are checked (and normalized) before anything is sent.
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import { normalizeCurrency, normalizePeriod } from '../../lib/transfer/formats.js';
import type { UpdateOptions } from './definitions.js';

/** Each flag, the service's field, and how its value is checked. */
const FIELDS = [
  ['payee', 'payee', 'Payee', (v: string) => (v.trim() === '' ? undefined : v.trim()), '1 to 255 characters'],
  ['payor', 'payor', 'Payor', (v: string) => (v.trim() === '' ? undefined : v.trim()), '1 to 255 characters'],
  ['accountingPeriod', 'accountingPeriod', 'AccountingPeriod', normalizePeriod, 'a period such as 2026Q1'],
  ['targetPeriod', 'targetPeriod', 'TargetPeriod', normalizePeriod, 'a period such as 2026H1'],
  ['currencyRoyalty', 'currency', 'CurrencyRoyalty', normalizeCurrency, 'an ISO 4217 code such as EUR'],
  ['currencyTransaction', 'currencyTx', 'CurrencyTransaction', normalizeCurrency, 'an ISO 4217 code such as USD'],
] as const;

const flagOf = (key: string): string => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export async function run(opts: UpdateOptions, ctx: Context): Promise<void> {
  const id = opts.args[0];
  if (!/^\d{1,15}$/.test(id)) throw new UsageError(`invalid statement id '${id}': expected a whole number`);
  const changes: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, field, suffix, normalize, want] of FIELDS) {
    const value = opts[key];
    const clear = opts[`clear${suffix}`];
    if (value !== undefined && clear)
      problems.push(`${flagOf(key)} and --clear-${flagOf(key).slice(2)} exclude each other`);
    else if (clear) changes[field] = null;
    else if (value !== undefined) {
      const normalized = normalize(value);
      if (normalized === undefined) problems.push(`invalid ${flagOf(key)} '${value}': expected ${want}`);
      else changes[field] = normalized;
    }
  }
  if (problems.length === 1) throw new UsageError(problems[0] as string);
  if (problems.length > 1) throw new UsageError(`${problems.length} problems; nothing was sent`, { details: problems });
  if (Object.keys(changes).length === 0)
    throw new UsageError('nothing to change: give a field (--payee, --accounting-period, …) or a --clear-<field>');
  const projectId = ctx.project();
  if (ctx.settings.dryRun) {
    const shown = Object.entries(changes).map(([field, value]) =>
      value === null ? `${field} cleared` : `${field} ${String(value)}`,
    );
    ctx.output.info(`Would change statement ${id}: ${shown.join(', ')}; nothing was sent (--dry-run)`);
    return;
  }
  await ctx.output.record(asGetNames(await ctx.api.documents.updateStatement(projectId, id, changes)));
}

/**
 * The PUT's answer names the currencies as its body does (currency_tx, currency); `statements get`
 * and every list name them currency_transaction and currency_royalty. One spelling per fact, in
 * every format: the answer is shown with get's names (one the service already spells so is kept).
 */
const GET_NAMES: Record<string, string> = { currency_tx: 'currency_transaction', currency: 'currency_royalty' };

function asGetNames(answer: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(answer).map(([key, value]) => [
      GET_NAMES[key] !== undefined && !(GET_NAMES[key] in answer) ? GET_NAMES[key] : key,
      value,
    ]),
  );
}
