// A record fetched by id, as a person reads it on a terminal (the data formats and a pipe get the
// record as it came, or its `field<TAB>value` reading). Fields read in words and units (`Size
// 616 B`, `Duration 2:51`, `File type PDF`), every timestamp as a local date; the service's
// plumbing (internal uuids, project and organization ids, metadata, `x_` fields, the rules a score
// triggered) shows only with --verbose. A statement leads with who sent it, for which period and
// how much; a contract with its file, then its includes as terms; any other record shows its
// fields in order, its lists of records as tables of their terms.
import { isRecordArray, looksLikeTimestamp, personText } from '../../lib/output/cell-text.js';
import { fieldLabel, isPlumbing, valueInUnits } from '../../lib/output/field-words.js';
import type { Field, PersonView, Section, TermList } from '../../lib/output/person-view.js';
import type { ResourceName } from '../../lib/resources.js';
import { isPlainObject } from '../../lib/shape.js';
import { citationLines, includeColumns, INCLUDE_COLUMNS } from './include-views.js';

type Record_ = Record<string, unknown>;

export interface ViewOptions {
  /** --verbose: the plumbing too, in a section of its own. */
  verbose: boolean;
}

const inner = (value: unknown, key: string): unknown => (isPlainObject(value) ? value[key] : undefined);

/** How a person sees a record of the resource (or a project) on a terminal. */
export function personViewOf(resource: ResourceName | 'projects', record: Record_, options: ViewOptions): PersonView {
  if (resource === 'statements') return statementView(record, options);
  if (resource === 'contracts') return recordView(record, options, ['id', 'name', 'file_name'], true);
  return recordView(record, options, ['id', 'name']);
}

const STATEMENT_HEAD: [string, (s: Record_) => unknown][] = [
  ['Name', (s) => s.statement_name],
  ['ID', (s) => s.id],
  ['Producer', (s) => s.statement_producer],
  ['Payor', (s) => s.payor],
  ['Payee', (s) => s.payee],
  ['Period', (s) => inner(s.financials, 'period') ?? s.accounting_period],
  ['Type', (s) => [s.statement_type, s.statement_category, s.statement_subtype].filter(Boolean).join(' · ')],
  ['File', (s) => s.file_name],
  ['Description', (s) => s.statement_desc],
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
  'detailed',
  'detailed_error',
]);

export function statementView(s: Record_, options: ViewOptions): PersonView {
  const currency = inner(s.financials, 'currency') ?? s.currency_royalty;
  const summary = inner(s.statement_summary, 'summary');
  const sections: Section[] = [
    { fields: STATEMENT_HEAD.map(([label, value]) => ({ label, value: value(s) })) },
    {
      title: 'Processing',
      fields: [
        { label: 'Stage', value: s.extraction_stage ?? s.processing_status },
        { label: 'Upload', value: s.upload_status },
        { label: 'Approval', value: s.approval_status },
        { label: 'Processed', value: s.processed_at, format: 'date' },
      ],
    },
    {
      title: 'Money',
      fields: [
        { label: 'Licensor revenue', value: inner(s.financials, 'licensor_revenue'), format: 'money', currency },
        { label: 'Licensee revenue', value: inner(s.financials, 'licensee_revenue'), format: 'money', currency },
        { label: 'Transaction currency', value: s.currency_transaction },
        { label: 'Royalty currency', value: s.currency_royalty },
      ],
    },
  ];
  if (Array.isArray(summary) && summary.length > 0)
    sections.push({ title: 'Summary', fields: [], lines: summary.map(String) });
  const rest = Object.fromEntries(Object.entries(s).filter(([key]) => !STATEMENT_SHOWN.has(key)));
  const other = recordView(rest, options);
  const details = other.sections[0] ?? { fields: [] };
  details.fields.push(...linesFields(s, options));
  if (isPlainObject(s.statement_summary)) {
    const { summary: _lines, ...more } = s.statement_summary;
    const { plain, plumbing } = fieldsOf('statement_summary', more, options);
    details.fields.push(...plain);
    if (options.verbose) plumbingSection(other).fields.push(...plumbing);
  }
  return {
    sections: [...sections, { ...details, title: 'Details' }, ...other.sections.slice(1)],
    lists: other.lists,
  };
}

/** A statement's lines (--detailed): how many, in which file; the signed link itself with --verbose. */
function linesFields(s: Record_, options: ViewOptions): Field[] {
  const fields: Field[] = [];
  if (isPlainObject(s.detailed)) {
    const { row_count: rows, file_name: file, csv_url: url } = s.detailed;
    const count = typeof rows === 'number' ? `${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}` : rows;
    fields.push({ label: 'Lines', value: [count, file].filter((v) => v !== undefined && v !== null).join(' in ') });
    if (options.verbose) fields.push({ label: 'Lines URL', value: url });
  }
  if (s.detailed_error !== undefined && s.detailed_error !== null)
    fields.push({ label: 'Lines', value: `not available: ${personText(s.detailed_error)}` });
  return fields;
}

/**
 * Any record: the fields named in `lead` first, then the others in order (a nested object's as
 * `Field key` lines); its lists of records as terms; a deployed contract's `extractions` as its
 * includes, its score as a section (the rules it triggered with --verbose).
 */
export function recordView(record: Record_, options: ViewOptions, lead: string[] = [], includes = false): PersonView {
  const view: PersonView = { sections: [{ fields: [] }], lists: [] };
  const fields = (view.sections[0] as Section).fields;
  const addList = (name: string, rows: Record_[]) => {
    const list: TermList = { title: fieldLabel(name), columns: includeColumns(name, rows, options.verbose), rows };
    if (rows.some((row) => Array.isArray(row.citations))) list.notes = citationLines;
    view.lists.push(list);
  };
  const ordered = [
    ...lead.filter((key) => Object.hasOwn(record, key)).map((key) => [key, record[key]] as const),
    ...Object.entries(record).filter(([key]) => !lead.includes(key)),
  ];
  for (const [key, value] of ordered) {
    if (key === 'extractions' && isPlainObject(value)) {
      for (const [name, rows] of Object.entries(value)) {
        if (Array.isArray(rows) && rows.every(isPlainObject)) addList(name, rows);
        else fields.push(...fieldsOf(name, rows, options).plain);
      }
    } else if (key === 'score' && isPlainObject(value)) {
      const { triggered_rules: rules, summary, ...other } = value;
      const score = [...fieldsOf('', summary, options).plain, ...fieldsOf('', other, options).plain];
      view.sections.push({ title: 'Score', fields: score });
      if (options.verbose && Array.isArray(rules) && rules.every(isPlainObject)) addList('triggered_rules', rules);
    } else if (isRecordArray(value) && (keptAsList(key, includes) || !namesOnly(value as Record_[], options))) {
      addList(key, value as Record_[]);
    } else if (Array.isArray(value) && value.length === 0 && key in INCLUDE_COLUMNS) {
      addList(key, []);
    } else {
      const { plain, plumbing } = fieldsOf(key, value, options);
      fields.push(...plain);
      if (options.verbose && plumbing.length > 0) plumbingSection(view).fields.push(...plumbing);
    }
  }
  return view;
}

/** The section --verbose adds for the service's plumbing, last. */
function plumbingSection(view: PersonView): Section {
  const found = view.sections.find((section) => section.title === 'Internal');
  if (found) return found;
  const section: Section = { title: 'Internal', fields: [] };
  view.sections.push(section);
  return section;
}

/** A contract's includes stay lists in either form; merged variants are told apart by their ids. */
const keptAsList = (key: string, includes: boolean): boolean =>
  key === 'merged' || (includes && key in INCLUDE_COLUMNS);

/**
 * A list of records that only name something (`[{name: 'Nova Reyes'}]`, with ids a person is not
 * shown but with --verbose) reads as one field: `Artists  Nova Reyes, The Painted Machines`.
 */
function namesOnly(rows: Record_[], options: ViewOptions): boolean {
  const hidden = (key: string, value: unknown) =>
    value === null || value === undefined || isPlumbing(key, value) || (!options.verbose && /(^|_)id$/.test(key));
  return rows.every(
    (row) => 'name' in row && Object.entries(row).every(([key, value]) => key === 'name' || hidden(key, value)),
  );
}

/**
 * A field as lines, in words: a nested object's fields under its name (`Detailed file`), a
 * timestamp as a date, a size or a duration in its unit; plumbing apart.
 */
function fieldsOf(key: string, value: unknown, options: ViewOptions): { plain: Field[]; plumbing: Field[] } {
  const plain: Field[] = [];
  const plumbing: Field[] = [];
  const visit = (path: string[], name: string, inside: unknown, hidden: boolean) => {
    const isHidden = hidden || (name !== '' && isPlumbing(name, inside));
    const here = name === '' ? path : [...path, name];
    if (isPlainObject(inside) && !['name', 'value', 'tag'].some((k) => k in inside)) {
      for (const [k, v] of Object.entries(inside)) visit(here, k, v, isHidden);
      return;
    }
    const label = here.map((part, i) => (i === 0 ? fieldLabel(part) : lowerFirst(fieldLabel(part)))).join(' ');
    const units = valueInUnits(name, inside);
    const field: Field =
      units !== undefined
        ? { label, value: units }
        : looksLikeTimestamp(inside)
          ? { label, value: inside, format: 'date' }
          : { label, value: inside };
    (isHidden ? plumbing : plain).push(field);
  };
  visit([], key, value, false);
  if (!options.verbose) plumbing.length = 0;
  return { plain, plumbing };
}

/** `File type` → `file type` inside a longer label; `URL` and `ISRC` stay. */
const lowerFirst = (label: string): string =>
  /^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
