import type { Include as ContractInclude } from '../vocabulary.js';
import type { CompositionRecord, EntityRecord, PersonRecord, RecordingRecord } from '../store.js';
import { JOB_TITLES, TERRITORIES, CONTRACT_TITLES, type ContractKind } from '../seed-words.js';
import { DAY, YEAR, type Rng, date } from './basics.js';

interface IncludeSources {
  parties: { e: EntityRecord; role: string }[];
  artists: PersonRecord[];
  writers: PersonRecord[];
  recordings: RecordingRecord[];
  compositions: CompositionRecord[];
  effective: number;
  signatory: (k: number) => string;
}

/** What every part of a contract's terms draws on. */
interface Terms {
  kind: ContractKind;
  /** Songwriter, co-publishing and administration deals cover compositions; the rest, masters. */
  publishing: boolean;
  rng: Rng;
  /** The id of the next sub-record of an include: numbered per include ("20001-roy-2"). */
  next: (tag: string) => string;
  currency: string;
  money: (min: number, max: number) => number;
}

/** The extracted terms of one contract, one small array per include name. */
export function contractIncludes(
  contractId: string,
  kind: ContractKind,
  rng: Rng,
  src: IncludeSources,
): Partial<Record<ContractInclude, Record<string, unknown>[]>> {
  // The order of the draws below is the seed's: moving one changes every project's data.
  const counters = new Map<string, number>();
  const next = (tag: string): string => {
    const n = (counters.get(tag) ?? 0) + 1;
    counters.set(tag, n);
    return `${contractId}-${tag}-${n}`;
  };
  const publishing = kind === 'songwriter' || kind === 'co-publishing' || kind === 'administration';
  const terms: Terms = {
    kind,
    publishing,
    rng,
    next,
    currency: rng.pick(['USD', 'USD', 'EUR', 'GBP']),
    money: (min, max) => rng.int(min / 500, max / 500) * 500,
  };
  const { currency, money } = terms;
  const termYears = rng.int(3, 7);
  const signed = date(src.effective - rng.int(3, 40) * DAY);
  const assignee = src.parties.find((p) => p.role === 'assignee')?.e.name ?? src.parties[0]?.e.name ?? '';
  const assignor = src.parties.find((p) => p.role === 'assignor')?.e.name ?? '';

  const royalties = royaltyTerms(terms);
  const firstShare = rng.pick(publishing ? [50, 60, 70, 75] : kind === 'distribution' ? [80, 85, 90] : [50, 80]);
  const firstParty = publishing ? (src.writers[0]?.name ?? assignor) : assignor || (src.artists[0]?.name ?? assignee);
  const periods = accountingPeriods(rng);
  const advance = money(publishing ? 5000 : 10000, publishing ? 60000 : 250000);
  const costs = costTerms(terms);
  const unrecouped = Math.max(0, advance + costs.reduce((sum, c) => sum + c.amount, 0) - money(0, 200000));
  const compensations = compensationTerms(terms, advance);
  const dates = keyDates(terms, signed, src.effective, termYears);
  const signatures = src.parties.map(({ e }, k) => ({
    id: next('sig'),
    party: e.name,
    signatory: src.signatory(k),
    title: rng.pick(JOB_TITLES),
    signed_on: signed,
  }));
  const controlAreas = [
    {
      id: next('ca'),
      territory: rng.pick(TERRITORIES),
      rights: publishing ? 'compositions' : kind === 'distribution' ? 'distribution' : 'masters',
    },
  ];
  const creativeApprovals = creativeApprovalTerms(terms);

  return {
    entities: src.parties.map(({ e, role }) => ({ id: e.id, name: e.name, role })),
    artists: src.artists.map((a) => ({ id: a.id, name: a.name })),
    writers: src.writers.map((w) => ({ id: w.id, name: w.name })),
    royalties,
    splits: [
      { id: next('spl'), party: firstParty, share: firstShare, basis: 'net receipts' },
      { id: next('spl'), party: assignee, share: 100 - firstShare, basis: 'net receipts' },
    ],
    costs,
    compensations,
    dates,
    'accounting-periods': periods.map(([name, start, end, due]) => ({
      id: next('ap'),
      name,
      start,
      end,
      statement_due: due,
    })),
    types: contractTypes(terms),
    signatures,
    'control-areas': controlAreas,
    'creative-approvals': creativeApprovals,
    balances:
      unrecouped > 0
        ? [
            {
              id: next('bal'),
              type: 'unrecouped balance',
              amount: unrecouped,
              currency,
              as_of: date(src.effective + YEAR),
            },
          ]
        : [],
    recordings: src.recordings.map((r) => ({ id: r.id, name: r.name })),
    compositions: src.compositions.map((c) => ({ id: c.id, name: c.name })),
  };
}

/** Two to four royalty rates, of the types the kind of deal pays. */
function royaltyTerms({ kind, publishing, rng, next }: Terms): Record<string, unknown>[] {
  const royaltyTypes = publishing
    ? ['mechanical', 'performance', 'sync', 'print']
    : kind === 'distribution'
      ? ['distribution fee']
      : ['physical', 'digital download', 'streaming', 'sync', 'neighbouring rights'];
  return rng.sample(royaltyTypes, rng.int(2, 4)).map((type) => ({
    id: next('roy'),
    rate:
      type === 'distribution fee'
        ? rng.int(10, 25) / 100
        : publishing
          ? rng.int(50, 80) / 100
          : type === 'sync' || type === 'neighbouring rights'
            ? 0.5
            : rng.int(150, 250) / 1000,
    type,
    territory: rng.pick(TERRITORIES),
    basis: !publishing && (type === 'streaming' || type === 'physical') ? 'PPD' : 'net receipts',
  }));
}

/** Half-yearly or quarterly accounting: name, first and last day, and when the statement is due. */
function accountingPeriods(rng: Rng): [string, string, string, string][] {
  return rng.chance(0.6)
    ? [
        ['H1', '01-01', '06-30', '09-30'],
        ['H2', '07-01', '12-31', '03-31'],
      ]
    : [
        ['Q1', '01-01', '03-31', '05-15'],
        ['Q2', '04-01', '06-30', '08-14'],
        ['Q3', '07-01', '09-30', '11-14'],
        ['Q4', '10-01', '12-31', '02-14'],
      ];
}

/** The costs the deal lets the assignee recoup (an administration deal has none). */
function costTerms({
  kind,
  rng,
  next,
  currency,
  money,
}: Terms): { id: string; amount: number; [key: string]: unknown }[] {
  if (kind === 'administration') return [];
  return rng
    .sample(
      ['recording costs', 'video production', 'tour support', 'marketing', 'independent promotion'],
      rng.int(1, 3),
    )
    .map((type) => ({
      id: next('cost'),
      type,
      amount: money(2000, 80000),
      currency,
      recoupable: type !== 'marketing',
    }));
}

/** The advance on signature, and sometimes one on exercising the option. */
function compensationTerms({ rng, next, currency, money }: Terms, advance: number): Record<string, unknown>[] {
  const compensations: Record<string, unknown>[] = [
    { id: next('comp'), type: 'advance', amount: advance, currency, payable_on: 'signature' },
  ];
  if (rng.chance(0.5)) {
    const amount = money(5000, 150000);
    compensations.push({ id: next('comp'), type: 'option advance', amount, currency, payable_on: 'option exercise' });
  }
  return compensations;
}

/** Signature, effective date, end of term, and sometimes an option deadline. */
function keyDates(
  { rng, next }: Terms,
  signed: string,
  effective: number,
  termYears: number,
): Record<string, unknown>[] {
  const dates: Record<string, unknown>[] = [
    { id: next('date'), type: 'signature', date: signed },
    { id: next('date'), type: 'effective', date: date(effective) },
    { id: next('date'), type: 'term end', date: date(effective + termYears * YEAR) },
  ];
  if (rng.chance(0.4)) {
    dates.push({ id: next('date'), type: 'option exercise deadline', date: date(effective + (termYears - 1) * YEAR) });
  }
  return dates;
}

/** What the parties must agree on before release, and after how many days silence is consent. */
function creativeApprovalTerms({ rng, next }: Terms): Record<string, unknown>[] {
  return rng
    .sample(['artwork', 'singles selection', 'music videos', 'remixes', 'sync placements'], rng.int(1, 3))
    .map((subject) => ({
      id: next('cap'),
      subject,
      approver: rng.pick(['mutual', 'artist', 'label']),
      deemed_after_days: rng.pick([5, 10, 14]),
    }));
}

function contractTypes({ kind, publishing, next }: Terms): Record<string, unknown>[] {
  const types: Record<string, unknown>[] = [
    {
      id: next('type'),
      name: CONTRACT_TITLES[kind],
      category: publishing ? 'publishing' : kind === 'distribution' ? 'distribution' : 'recording',
    },
  ];
  if (kind === 'recording' || kind === 'songwriter')
    types.push({ id: next('type'), name: 'Exclusive', category: 'term' });
  return types;
}
