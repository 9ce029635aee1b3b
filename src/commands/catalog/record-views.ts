// A catalog record fetched by id, as a person reads it on a terminal (the data formats and a pipe
// get the record as it came, or its `field<TAB>value` reading). A statement leads with who sent it,
// for which period and how much; a contract with its file and dates, then its includes as terms;
// any other record shows its fields in order, its lists of records as tables of their terms.
import { isRecordArray, looksLikeTimestamp } from '../../lib/output/cell-text.js';
import type { Field, PersonView, Section, TermList } from '../../lib/output/person-view.js';
import { isPlainObject } from '../../lib/shape.js';
import { includeColumns, INCLUDE_COLUMNS } from './include-views.js';

type Record_ = Record<string, unknown>;

const STATEMENT_HEAD: [string, (s: Record_) => unknown][] = [
  ['name', (s) => s.statement_name],
  ['id', (s) => s.id],
  ['producer', (s) => s.statement_producer],
  ['payor', (s) => s.payor],
  ['payee', (s) => s.payee],
  ['period', (s) => inner(s.financials, 'period') ?? s.accounting_period],
  ['type', (s) => [s.statement_type, s.statement_category, s.statement_subtype].filter(Boolean).join(' · ')],
  ['file', (s) => s.file_name],
  ['description', (s) => s.statement_desc],
];
const STATEMENT_SHOWN = new Set([
  'statement_name',
  'id',
  'statement_producer',
  'payor',
  'payee',
  'accounting_period',
  'statement_type',
  'statement_category',
  'statement_subtype',
  'file_name',
  'statement_desc',
  'extraction_stage',
  'processing_status',
  'upload_status',
  'approval_status',
  'processed_at',
  'financials',
  'currency_transaction',
  'currency_royalty',
  'statement_summary',
]);

const inner = (value: unknown, key: string): unknown => (isPlainObject(value) ? value[key] : undefined);

export function statementView(s: Record_): PersonView {
  const currency = inner(s.financials, 'currency') ?? s.currency_royalty;
  const summary = inner(s.statement_summary, 'summary');
  const sections: Section[] = [
    { fields: STATEMENT_HEAD.map(([label, value]) => ({ label, value: value(s) })) },
    {
      title: 'processing',
      fields: [
        { label: 'stage', value: s.extraction_stage ?? s.processing_status },
        { label: 'upload', value: s.upload_status },
        { label: 'approval', value: s.approval_status },
        { label: 'processed', value: s.processed_at, format: 'date' },
      ],
    },
    {
      title: 'money',
      fields: [
        { label: 'licensor revenue', value: inner(s.financials, 'licensor_revenue'), format: 'money', currency },
        { label: 'licensee revenue', value: inner(s.financials, 'licensee_revenue'), format: 'money', currency },
        { label: 'transaction currency', value: s.currency_transaction },
        { label: 'royalty currency', value: s.currency_royalty },
      ],
    },
  ];
  if (Array.isArray(summary) && summary.length > 0)
    sections.push({ title: 'summary', fields: [], lines: summary.map(String) });
  const rest = Object.fromEntries(Object.entries(s).filter(([key]) => !STATEMENT_SHOWN.has(key)));
  const other = recordView(rest);
  if (isPlainObject(s.statement_summary)) {
    const { summary: _lines, ...meta } = s.statement_summary;
    other.sections[0]?.fields.push(...fieldsOf('summary', meta));
  }
  return {
    sections: [
      ...sections,
      ...other.sections.map((section, i) => (i === 0 ? { ...section, title: 'details' } : section)),
    ],
    lists: other.lists,
  };
}

export function contractView(c: Record_): PersonView {
  const head: Field[] = [
    { label: 'id', value: c.id },
    { label: 'name', value: c.name },
    { label: 'file', value: c.file_name },
  ];
  const rest = Object.fromEntries(Object.entries(c).filter(([key]) => !['id', 'name', 'file_name'].includes(key)));
  const view = recordView(rest);
  const first = view.sections[0] ?? { fields: [] };
  return { sections: [{ fields: [...head, ...first.fields] }, ...view.sections.slice(1)], lists: view.lists };
}

/**
 * Any record: its fields in order (a nested object's as `field key` lines, a timestamp as a date),
 * its lists of records as terms; a deployed contract's `extractions` as its includes, its score as
 * a section and the rules it triggered.
 */
export function recordView(record: Record_): PersonView {
  const fields: Field[] = [];
  const sections: Section[] = [];
  const lists: TermList[] = [];
  const addList = (name: string, rows: Record_[]) =>
    lists.push({ title: name, columns: includeColumns(name, rows), rows });
  for (const [key, value] of Object.entries(record)) {
    if (key === 'extractions' && isPlainObject(value)) {
      for (const [name, rows] of Object.entries(value)) {
        if (Array.isArray(rows) && rows.every(isPlainObject)) addList(name, rows);
        else fields.push(...fieldsOf(name, rows));
      }
    } else if (key === 'score' && isPlainObject(value)) {
      const { triggered_rules: rules, summary, ...other } = value;
      sections.push({ title: 'score', fields: [...fieldsOf('', summary), ...fieldsOf('', other)] });
      if (Array.isArray(rules) && rules.every(isPlainObject)) addList('triggered_rules', rules);
    } else if (isRecordArray(value) || (Array.isArray(value) && value.length === 0 && key in INCLUDE_COLUMNS)) {
      addList(key, value as Record_[]);
    } else fields.push(...fieldsOf(key, value));
  }
  return { sections: [{ fields }, ...sections], lists };
}

/** A field as lines: a nested object's fields under its name, a timestamp as a date. */
function fieldsOf(key: string, value: unknown): Field[] {
  if (isPlainObject(value) && !['name', 'value', 'tag'].some((label) => label in value)) {
    return Object.entries(value).flatMap(([name, inside]) => fieldsOf(key ? `${key} ${name}` : name, inside));
  }
  const label = key;
  if (looksLikeTimestamp(value)) return [{ label, value, format: 'date' }];
  return [{ label, value }];
}
