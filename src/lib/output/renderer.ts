// The one renderer: it picks the mode and hands each form to its module. Lists: a view's table on a
// TTY, tab-separated rows with a header when piped, a JSON array with --json, ids with -q, csv,
// ndjson or yaml. Records: a resource's view for a person on a TTY, `key<TAB>value` piped, or the
// same formats. --fields and --jq apply before any format. Human text goes to stderr; nothing
// animates or is colored off a TTY. Service text is made safe for a terminal (safeText) once.
import type { ChalkInstance } from 'chalk';
import type { ListPage } from '../api/catalog.js';
import { loadCells } from './cells.js';
import { recordKeys, textCell } from './cell-text.js';
import { collectTable } from './list-table.js';
import type { Settings } from '../config/settings.js';
import { checkFields, pickFields, pickFlat } from './fields.js';
import type { IO } from '../io.js';
import { animationEnabled, colorEnabled } from '../io.js';
import type { JqFilter } from './jq.js';
import { asRows, csvText, footer, observedPages, oneValue, pickedList, streamPages } from './list-writers.js';
import type { PageSeen } from './list-writers.js';
import { type CsvOptions, type Format, yamlDocument } from './formats.js';
import { type PersonView, renderPersonView } from './person-view.js';
import { renderRecord } from './record-view.js';
import { type Spinner, StderrActivity } from './spinner.js';
import { type ColumnFit, columnOfFit, type LayoutColumn, layoutTable, wrapProse } from './table-layout.js';
import { safeJson, safeLines, safeText } from './text.js';
import { isPlainObject } from '../shape.js';
import type { ListView } from './view.js';
import { jsonText } from './deep-json.js';
import { type FileFormat, printedFormat } from './table-file.js';

export type Mode = Exclude<Format, FileFormat> | 'ids';

/** The modes whose output is data for a program: no human form, no color. */
const DATA_MODES: readonly Mode[] = ['json', 'ndjson', 'yaml', 'csv'];

/** The format asked for; else ids with -q (which gives way only to a data format); else table or TSV. */
function chooseMode(settings: Settings, io: IO): Mode {
  const format = printedFormat(settings.format) ?? (settings.json ? 'json' : undefined);
  if (format && (DATA_MODES.includes(format) || !settings.quiet)) return format;
  return settings.quiet ? 'ids' : io.stdoutIsTTY ? 'table' : 'tsv';
}

type Style = 'bold' | 'dim' | 'green' | 'red' | 'yellow' | 'cyan';

export class Output {
  readonly mode: Mode;
  readonly colorOut: boolean;
  readonly colorErr: boolean;
  /** stderr may animate: spinners and live lines; otherwise static lines (TERM=dumb, PDS_NO_SPINNER). */
  readonly animates: boolean;
  private chalk: ChalkInstance | undefined;
  /** `--jq` and `--fields` (src/lib/output/jq.ts, src/lib/output/fields.ts), set before the verb runs. */
  jq: JqFilter | undefined;
  private jqWritten: Promise<void> = Promise.resolve();

  /** Resolves once everything given to json() is written; rejects with a --jq failure. */
  settled = (): Promise<void> => this.jqWritten;
  fields: string[] | undefined;
  /** The fields the command's records document (checkFields), which --fields may name before any record is seen. */
  private documented: { known: readonly string[]; noun: string } | undefined;

  /**
   * stderr takes frames (a spinner, live lines): a terminal, and not a CI log (a runner may give a
   * job a terminal, but its log is read later, line by line).
   */
  readonly liveStderr: boolean;
  private readonly activity: StderrActivity;

  constructor(
    readonly io: IO,
    private readonly settings: Settings,
    env: NodeJS.ProcessEnv,
    private readonly pageSeen?: (page: PageSeen) => void,
  ) {
    this.liveStderr = io.stderrIsTTY && (env.CI === undefined || env.CI === '' || env.CI === 'false');
    this.mode = chooseMode(settings, io);
    const wantsColor = (stream: 'stdout' | 'stderr') => colorEnabled(stream, io, env, settings.noColor);
    this.colorOut = !this.isData && wantsColor('stdout');
    this.colorErr = wantsColor('stderr');
    this.animates = animationEnabled(io, env);
    this.activity = new StderrActivity(io, {
      live: this.liveStderr,
      animates: this.animates,
      silent: settings.quiet || this.isData,
      say: (text) => this.info(text),
    });
  }

  /** The output is data for a program (json, ndjson, yaml, csv): a command draws no human form. */
  get isData(): boolean {
    return DATA_MODES.includes(this.mode);
  }

  private get csvOptions(): CsvOptions {
    return { raw: this.settings.csvRaw, ...(this.io.stdoutIsTTY ? { safe: safeText } : {}) };
  }

  /**
   * Any value as data in the chosen format, --jq applied: JSON; ndjson, an array's items a line
   * each; a YAML document; CSV rows (an array of records, or one record). In table, TSV and ids
   * modes a record is drawn as record() does, an array of records as a table, anything else as text.
   */
  async data(value: unknown): Promise<void> {
    if (this.jq && this.mode === 'json') {
      this.json(value);
      return;
    }
    const shown = this.jq ? oneValue(await this.jq.values(value)) : value;
    const out = this.io.stdout;
    switch (this.mode) {
      case 'json':
        this.json(shown);
        return;
      case 'ndjson':
        for (const item of Array.isArray(shown) ? shown : [shown]) out.write(`${this.terminalJson(jsonText(item))}\n`);
        return;
      case 'yaml': {
        const text = await yamlDocument(shown);
        out.write(this.io.stdoutIsTTY ? safeLines(text) : text);
        return;
      }
      case 'csv': {
        const rows = asRows(shown);
        out.write(csvText(rows, recordKeys(rows), { ...this.csvOptions, bom: this.settings.csvBom }));
        return;
      }
    }
    if (isPlainObject(shown)) await this.drawRecord(shown);
    else if (Array.isArray(shown) && shown.every(isPlainObject)) await this.rows(shown);
    else for (const item of Array.isArray(shown) ? shown : [shown]) out.write(`${textCell(item)}\n`);
  }

  /**
   * In a data format (or with --jq): renders the value and answers true. In a human mode it
   * answers false, and the command draws its own form (a file's content, a sentence).
   */
  async asData(value: unknown): Promise<boolean> {
    if (!this.isData && !this.jq) return false;
    await this.data(value);
    return true;
  }

  /** Records with any keys, as a table on a terminal and TSV piped (ids with -q: their `id`). */
  private async rows(records: readonly Record<string, unknown>[]): Promise<void> {
    const keys = recordKeys(records);
    await this.draw(
      (async function* () {
        yield { items: [...records], page: 1, perPage: records.length };
      })(),
      {
        columns: keys.map((key) => ({ header: key, value: (record) => record[key] })),
        id: (record) => textCell(record.id),
        noun: 'records',
        all: true,
        fields: keys,
      },
    );
  }

  /**
   * The fields a record documents, for --fields; a get calls it before its request. A name neither
   * documented nor in the record it gets is exit 2, listing both (record(), before any output).
   */
  checkFields(known: readonly string[], noun: string): void {
    this.documented = { known, noun };
  }

  /** Raw data on stdout (file contents, command output). */
  write(text: string | Uint8Array): void {
    this.io.stdout.write(text);
  }

  /** Raw text on stderr. */
  writeErr(text: string | Uint8Array): void {
    this.activity.clearWaiting();
    this.io.stderr.write(text);
  }

  /** A human line on stderr, made safe for the terminal, then styled; silent with -q. */
  info(message: string, style?: 'dim'): void {
    if (this.settings.quiet) return;
    this.activity.clearWaiting();
    const text = safeText(message);
    this.io.stderr.write(`${style ? this.paintErr(style, text) : text}\n`);
  }

  /**
   * Prose on stderr (a notice, a finding) made safe, and on a terminal wrapped at word boundaries
   * to its width, later lines under `indent`; silent with -q. A pipe gets it on one line.
   */
  async note(message: string, options: { style?: 'dim'; indent?: string } = {}): Promise<void> {
    if (this.settings.quiet) return;
    const text = safeText(message);
    const lines = this.io.stderrIsTTY ? wrapProse(await loadCells(), text, this.io.columns, options.indent) : [text];
    this.activity.clearWaiting();
    for (const line of lines) this.io.stderr.write(`${options.style ? this.paintErr(options.style, line) : line}\n`);
  }

  /** A warning on stderr, made safe for the terminal; silent with -q. */
  warn(message: string): void {
    this.activity.clearWaiting();
    if (!this.settings.quiet) this.io.stderr.write(`${this.paintErr('yellow', 'warning:')} ${safeText(message)}\n`);
  }

  /** Any value as JSON on stdout, the same bytes a pipe or a TTY gets. */
  json(value: unknown): void {
    const { jq } = this;
    if (jq) {
      // jq runs in a worker (src/lib/output/jq.ts): its results are written in order, and settled() is
      // awaited before the command counts as done. The rejection is also handled here, so that a
      // command that fails before settled() leaves no unhandled promise.
      const terminal = this.io.stdoutIsTTY;
      this.jqWritten = this.jqWritten.then(async () => void this.io.stdout.write(await jq.apply(value, terminal)));
      this.jqWritten.catch(() => undefined);
      return;
    }
    this.io.stdout.write(`${this.terminalJson(jsonText(value, 2))}\n`);
  }

  /** JSON for a terminal (safeJson); piped, as written. */
  private terminalJson(text: string): string {
    return this.io.stdoutIsTTY ? safeJson(text) : text;
  }

  /** Loads chalk when (and only when) something will be colored. */
  async prepareColor(): Promise<void> {
    if ((this.colorOut || this.colorErr) && !this.chalk) {
      const { Chalk } = await import('chalk');
      this.chalk = new Chalk({ level: 1 });
    }
  }

  paint(style: Style, text: string): string {
    return this.colorOut && this.chalk ? this.chalk[style](text) : text;
  }

  paintErr(style: Style, text: string): string {
    return this.colorErr && this.chalk ? this.chalk[style](text) : text;
  }

  /** A spinner on stderr (src/lib/output/spinner.ts): frames on a terminal that animates, lines on one that does not. */
  spinner(text: string): Promise<Spinner> {
    return this.activity.spinner(text);
  }

  /** Live lines (or any display of a command's own) hold stderr until the returned function is called. */
  holdStderr(): () => void {
    return this.activity.holdStderr();
  }

  /** `work` (a request) with a spinner once it has been slow (src/lib/output/spinner.ts). */
  whileSlow<T>(text: string, work: Promise<T>): Promise<T> {
    return this.activity.whileSlow(text, work);
  }

  /** Renders pages as they arrive; JSON, ids and TSV stream, a table waits for the rows. */
  async list<T extends object>(pages: AsyncIterable<ListPage<T>>, view: ListView<T>): Promise<void> {
    if (this.pageSeen) pages = observedPages(pages, this.pageSeen);
    if (this.fields && this.mode !== 'ids') await this.listWhole(...pickedList(pages, view, this.fields));
    else await this.listWhole(pages, view);
  }

  /** The list as it is (--fields applied): to jq or YAML whole, else drawn as the pages come. */
  private async listWhole<T extends object>(pages: AsyncIterable<ListPage<T>>, view: ListView<T>): Promise<void> {
    if (this.jq || this.mode === 'yaml') {
      // jq and YAML see the whole list at once: with --all every record is held (json, ndjson and csv stream).
      const items: T[] = [];
      for await (const page of pages) items.push(...page.items);
      await this.data(items);
      return;
    }
    await this.draw(pages, view);
  }

  /** The list in the mode, as the pages come (--fields and --jq already applied). */
  private async draw<T extends object>(pages: AsyncIterable<ListPage<T>>, view: ListView<T>): Promise<void> {
    await this.prepareColor();
    if (this.mode === 'table' || this.mode === 'yaml') await this.tablePages(pages, view);
    else {
      const csv = { ...this.csvOptions, bom: this.settings.csvBom };
      await streamPages(this.io.stdout, pages, this.mode, view, { csv, fields: this.fields });
    }
  }

  /** The table waits for every row: its columns are fitted to all of them. */
  private async tablePages<T extends object>(pages: AsyncIterable<ListPage<T>>, view: ListView<T>): Promise<void> {
    const { columns, rows, last, count } = await collectTable(pages, view);
    if (rows.length === 0) {
      this.info(`no ${view.noun} found`);
      return;
    }
    this.io.stdout.write(await this.tableOf(columns, rows));
    if (last) this.info(footer(last, count, view as ListView<never>), 'dim');
  }

  /** One record: aligned `field  value` lines on a TTY, `field<TAB>value` piped, or JSON. */
  async record(record: Record<string, unknown>, idKey = 'id', person?: () => PersonView): Promise<void> {
    if (this.fields && this.mode !== 'ids') {
      const { known, noun } = this.documented ?? { known: [], noun: 'this record' };
      checkFields(this.fields, known, noun, Object.keys(record));
      // Data keeps a dotted field's nesting; the view shows it as a row of its own.
      record = this.isData || this.jq ? pickFields(record, this.fields) : pickFlat(record, this.fields);
    }
    if (this.isData || this.jq) await this.data(record);
    else if (person && this.mode === 'table') await this.drawPerson(person());
    else await this.drawRecord(record, idKey);
  }

  /** A record's view for a person (src/lib/output/person-view.ts), fitted to the terminal. */
  private async drawPerson(view: PersonView): Promise<void> {
    await this.prepareColor();
    const paint = (style: 'bold' | 'dim', text: string) => this.paint(style, text);
    this.io.stdout.write(renderPersonView(view, { cells: await loadCells(), width: this.io.columns, paint }));
  }

  /** One record in a human mode: aligned fields, `field<TAB>value`, or its id. */
  private async drawRecord(record: Record<string, unknown>, idKey = 'id'): Promise<void> {
    if (this.mode === 'ids') {
      this.io.stdout.write(`${textCell(record[idKey])}\n`);
      return;
    }
    await this.prepareColor();
    this.io.stdout.write(
      await renderRecord(record, {
        mode: this.mode === 'tsv' ? 'tsv' : 'table',
        paint: (style, text) => this.paint(style, text),
        table: (headers, rows, prefix, fits) => this.table(headers, rows, prefix, fits),
      }),
    );
  }

  /** A borderless table fitted to the terminal's width, each column giving way as its fit says. */
  table(headers: string[], rows: string[][], prefix = '', fits: ColumnFit[] = []): Promise<string> {
    return this.tableOf(
      headers.map((header, i) => columnOfFit(header, fits[i])),
      rows,
      prefix,
    );
  }

  /** A borderless table fitted to the terminal's width (src/lib/output/table-layout.ts). */
  async tableOf(columns: LayoutColumn[], rows: string[][], prefix = ''): Promise<string> {
    return layoutTable(await loadCells(), {
      columns,
      rows,
      width: this.io.columns,
      prefix,
      bold: (text) => this.paint('bold', text),
    });
  }
}
