// The one renderer. Lists: a table on a TTY, tab-separated rows with a header when piped, a JSON
// array with --json, ids with -q; `--format` csv (RFC 4180), ndjson (a record a line, streamed) or
// yaml (one document). Records: aligned fields, `key<TAB>value`, or the same formats. --fields and
// --jq apply before any format: they mean the same in every one. Human text
// (footers, notices, progress) goes to stderr; nothing animates or is colored off a TTY. Every
// string from the service is made safe for a terminal here (safeText), once: cells, record fields,
// notices, spinner text; --json is written as the service sent it.
import type { ChalkInstance } from 'chalk';
import type { IO } from './io.js';
import { animationEnabled, colorEnabled } from './io.js';
import type { Settings } from './config.js';
import type { JqFilter } from './jq.js';
import type { ListPage } from './api/catalog.js';
import { checkFields, pickFields } from './fields.js';
import { safeLines, safeText, singular } from './text.js';
import { isPlainObject } from './shape.js';
import { loadCells } from './cells.js';
import { csvRow, UTF8_BOM, yamlDocument, type CsvOptions, type Format } from './output-formats.js';

export interface Column<T> {
  header: string;
  value: (record: T) => unknown;
  /** ISO timestamps shown as `YYYY-MM-DD HH:MM` on a TTY. */
  date?: boolean;
  /**
   * How the column gives way in a narrow table; `copy` for what is copied (an id, a name typed into
   * commands, a file name): never cut. Default: the first column and `id` are `copy`, dates `whole`,
   * anything else `text`.
   */
  fit?: ColumnFit;
  /** Left out of a table when no row fills it (TSV keeps it, so its header does not vary). */
  optional?: boolean;
}

export interface ListView<T> {
  columns: Column<T>[];
  id: (record: T) => string;
  /** Plural noun for messages: "artists". */
  noun: string;
  /** Whether every page is being followed (changes the footer). */
  all?: boolean;
  /** The fields `--fields` may name (src/lib/fields.ts). */
  fields?: readonly string[];
}

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

export type Mode = Format | 'ids';

/** The modes whose output is data for a program: no human form, no color. */
const DATA_MODES: readonly Mode[] = ['json', 'ndjson', 'yaml', 'csv'];

export class Output {
  readonly mode: Mode;
  readonly colorOut: boolean;
  readonly colorErr: boolean;
  /** stderr may animate: spinners and live lines; otherwise static lines (TERM=dumb, PDS_NO_SPINNER). */
  readonly animates: boolean;
  private chalk: ChalkInstance | undefined;
  /** `--jq` and `--fields` (src/lib/jq.ts, src/lib/fields.ts), set before the verb runs. */
  jq: JqFilter | undefined;
  private jqWritten: Promise<void> = Promise.resolve();

  /** Resolves once everything given to json() is written; rejects with a --jq failure. */
  settled(): Promise<void> {
    return this.jqWritten;
  }
  fields: string[] | undefined;
  /** The fields the command's records document (checkFields), which --fields may name before any record is seen. */
  private documented: { known: readonly string[]; noun: string } | undefined;

  /**
   * stderr takes frames (a spinner, live lines): a terminal, and not a CI log (a runner may give a
   * job a terminal, but its log is read later, line by line).
   */
  readonly liveStderr: boolean;

  constructor(
    readonly io: IO,
    private readonly settings: Settings,
    env: NodeJS.ProcessEnv,
  ) {
    this.liveStderr = io.stderrIsTTY && (env.CI === undefined || env.CI === '' || env.CI === 'false');
    const format = settings.format ?? (settings.json ? 'json' : undefined);
    // -q (ids) gives way only to a data format: `-q --format table` still prints ids.
    this.mode =
      format && (DATA_MODES.includes(format) || !settings.quiet)
        ? format
        : settings.quiet
          ? 'ids'
          : io.stdoutIsTTY
            ? 'table'
            : 'tsv';
    const wantsColor = (stream: 'stdout' | 'stderr') => colorEnabled(stream, io, env, settings.noColor);
    this.colorOut = !this.isData && wantsColor('stdout');
    this.colorErr = wantsColor('stderr');
    this.animates = animationEnabled(io, env);
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
        for (const item of Array.isArray(shown) ? shown : [shown]) out.write(`${JSON.stringify(item)}\n`);
        return;
      case 'yaml': {
        const text = await yamlDocument(shown);
        out.write(this.io.stdoutIsTTY ? safeLines(text) : text);
        return;
      }
      case 'csv':
        this.csv(asRows(shown));
        return;
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

  /** Records as CSV: a header row of their keys, then one row each. */
  private csv(records: readonly Record<string, unknown>[], keys = recordKeys(records)): void {
    const options = this.csvOptions;
    let text = this.settings.csvBom ? UTF8_BOM : '';
    if (keys.length > 0) text += csvRow(keys, options);
    for (const record of records)
      text += csvRow(
        keys.map((key) => record[key]),
        options,
      );
    this.io.stdout.write(text);
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
    this.clearWaiting();
    this.io.stderr.write(text);
  }

  /** A human line on stderr, made safe for the terminal, then styled; silent with -q. */
  info(message: string, style?: 'dim'): void {
    if (this.settings.quiet) return;
    this.clearWaiting();
    const text = safeText(message);
    this.io.stderr.write(`${style ? this.paintErr(style, text) : text}\n`);
  }

  /** A warning on stderr, made safe for the terminal; silent with -q. */
  warn(message: string): void {
    this.clearWaiting();
    if (!this.settings.quiet) this.io.stderr.write(`${this.paintErr('yellow', 'warning:')} ${safeText(message)}\n`);
  }

  /** Any value as JSON on stdout, the same bytes a pipe or a TTY gets. */
  json(value: unknown): void {
    const { jq } = this;
    if (jq) {
      // jq runs in a worker (src/lib/jq.ts): its results are written in order, and settled() is
      // awaited before the command counts as done. The rejection is also handled here, so that a
      // command that fails before settled() leaves no unhandled promise.
      const terminal = this.io.stdoutIsTTY;
      this.jqWritten = this.jqWritten.then(async () => void this.io.stdout.write(await jq.apply(value, terminal)));
      this.jqWritten.catch(() => undefined);
      return;
    }
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** Loads chalk when (and only when) something will be colored. */
  async prepareColor(): Promise<void> {
    if ((this.colorOut || this.colorErr) && !this.chalk) {
      const { Chalk } = await import('chalk');
      this.chalk = new Chalk({ level: 1 });
    }
  }

  paint(style: 'bold' | 'dim' | 'green' | 'red' | 'yellow' | 'cyan', text: string): string {
    return this.colorOut && this.chalk ? this.chalk[style](text) : text;
  }

  paintErr(style: 'bold' | 'dim' | 'green' | 'red' | 'yellow' | 'cyan', text: string): string {
    return this.colorErr && this.chalk ? this.chalk[style](text) : text;
  }

  /**
   * A spinner on stderr when it is a terminal that animates (and not -q or a data format). On a
   * terminal that does not (TERM=dumb, PDS_NO_SPINNER=1), a line for each new text, no frames.
   * Piped, nothing.
   */
  async spinner(text: string): Promise<Spinner> {
    if (!this.liveStderr || this.settings.quiet || this.isData) {
      return { update: () => undefined, stop: () => undefined };
    }
    if (!this.animates || zeroWidth(this.io.stderr)) {
      let last = '';
      const say = (next: string) => {
        if (next !== last) this.info(next);
        last = next;
      };
      say(text);
      return { update: say, stop: () => undefined };
    }
    const { default: ora } = await import('ora');
    // discardStdin would put the terminal in raw mode, where Ctrl-C is a byte, not SIGINT: it
    // reached nobody, since ora adds its listener without resuming stdin. Cooked mode keeps Ctrl-C.
    const spinner = ora({
      text: safeText(text),
      stream: this.io.stderr,
      color: 'cyan',
      isEnabled: true,
      discardStdin: false,
    }).start();
    this.drawing++;
    let stopped = false;
    return {
      update: (next) => {
        spinner.text = safeText(next);
      },
      stop: () => {
        spinner.stop();
        if (!stopped) this.drawing--;
        stopped = true;
      },
    };
  }

  /** Spinners and live lines on stderr now: a waiting spinner would draw over them. */
  private drawing = 0;
  /** Slow work (requests) in flight, and the spinner that says so once one took over SLOW_MS. */
  private slowWork = 0;
  private waiting: { shown?: Spinner; cleared: boolean } | undefined;

  /** Live lines (or any display of a command's own) hold stderr until the returned function is called. */
  holdStderr(): () => void {
    this.clearWaiting();
    this.drawing++;
    let released = false;
    return () => {
      if (!released) this.drawing--;
      released = true;
    };
  }

  /**
   * `work` (a request) with a spinner once it has taken over SLOW_MS, so that a slow command does
   * not look hung: on a terminal's stderr that animates, not under CI, not -q or a data format,
   * not behind a pager, and not while the command draws its own progress there. One spinner
   * stands for all the work in flight; it is cleared when the last ends, or when a line is said.
   */
  async whileSlow<T>(text: string, work: Promise<T>): Promise<T> {
    if (
      !this.liveStderr ||
      !this.animates ||
      zeroWidth(this.io.stderr) ||
      this.settings.quiet ||
      this.isData ||
      this.io.paged
    )
      return work;
    this.slowWork++;
    const timer = setTimeout(() => {
      if (this.drawing > 0 || this.waiting) return;
      const waiting: { shown?: Spinner; cleared: boolean } = { cleared: false };
      this.waiting = waiting;
      void this.spinner(text).then((spinner) => {
        if (waiting.cleared) spinner.stop();
        else waiting.shown = spinner;
      });
    }, SLOW_MS);
    try {
      return await work;
    } finally {
      clearTimeout(timer);
      if (--this.slowWork === 0) this.clearWaiting();
    }
  }

  /** The waiting spinner leaves the line before anything else is written to stderr. */
  private clearWaiting(): void {
    const { waiting } = this;
    if (!waiting) return;
    this.waiting = undefined;
    waiting.cleared = true;
    waiting.shown?.stop();
  }

  /** Renders pages as they arrive; JSON, ids and TSV stream, a table waits for the rows. */
  async list<T extends object>(pages: AsyncIterable<ListPage<T>>, view: ListView<T>): Promise<void> {
    if (this.fields && this.mode !== 'ids') {
      pages = pickFromPages(pages, this.fields, view.fields ?? [], view.noun) as AsyncIterable<ListPage<T>>;
      view = { ...view, columns: fieldColumns(this.fields) as unknown as Column<T>[] };
    }
    if (this.jq || this.mode === 'yaml') {
      // jq and YAML see the whole list at once: with --all every record is held (json, ndjson and csv stream).
      const items: T[] = [];
      for await (const page of pages) items.push(...page.items);
      await this.data(items);
      return;
    }
    await this.draw(pages, view);
  }

  /**
   * The list in the mode, as the pages come (--fields and --jq already applied). Every form but the
   * table is written a page at a time, one write per page: a write per record was a system call per
   * record on a pipe or file (measured: a sixth of an `--all -q` of 100,000 records).
   */
  private async draw<T extends object>(pages: AsyncIterable<ListPage<T>>, view: ListView<T>): Promise<void> {
    await this.prepareColor();
    const out = this.io.stdout;
    if (this.mode === 'ndjson') {
      for await (const page of pages) {
        if (page.items.length > 0) out.write(`${page.items.map((item) => JSON.stringify(item)).join('\n')}\n`);
      }
    } else if (this.mode === 'csv') await this.csvPages(pages, view.fields);
    else if (this.mode === 'json') await this.jsonPages(pages);
    else if (this.mode === 'ids') {
      for await (const page of pages) {
        if (page.items.length > 0) out.write(page.items.map((item) => `${safeText(view.id(item))}\n`).join(''));
      }
    } else if (this.mode === 'tsv') {
      // The header waits for the first page: a request that fails leaves stdout empty.
      let header = false;
      for await (const page of pages) {
        const head = header ? '' : `${view.columns.map((c) => c.header.toUpperCase()).join('\t')}\n`;
        header = true;
        out.write(
          head + page.items.map((item) => `${view.columns.map((c) => textCell(c.value(item))).join('\t')}\n`).join(''),
        );
      }
    } else await this.tablePages(pages, view);
  }

  /**
   * CSV: one column per field the records document (`documented`, in its order), then any other
   * field the first page holds, or the --fields asked for. A field that first appears in a later
   * page of a documented resource is still a column. The header waits for the first page, so a
   * request that fails leaves stdout empty; a list with no records is the header alone.
   */
  private async csvPages<T extends object>(
    pages: AsyncIterable<ListPage<T>>,
    documented: readonly string[] = [],
  ): Promise<void> {
    let keys: string[] | undefined;
    for await (const page of pages) {
      if (page.items.length === 0) continue;
      const records = page.items as unknown as Record<string, unknown>[];
      if (keys) {
        const known = keys;
        this.io.stdout.write(
          records
            .map((record) =>
              csvRow(
                known.map((key) => record[key]),
                this.csvOptions,
              ),
            )
            .join(''),
        );
      } else {
        keys = this.fields ?? [...new Set([...documented, ...recordKeys(records)])];
        this.csv(records, keys);
      }
    }
    const header = this.fields ?? documented;
    if (!keys && header.length > 0) this.csv([], [...header]);
  }

  /**
   * One JSON array, a page at a time: `JSON.stringify(items, null, 2)` indents the records as the
   * elements of the array they are, so its inside (without the brackets) is the page's part of the
   * whole array. Per record, the writes and the re-indenting made most of the garbage of an `--all`
   * (measured: ~1.2 KB per record), enough to grow V8's heap with the record count. The bytes go
   * out as a view of one buffer: slicing the string and joining it to the separator would copy it
   * twice more.
   */
  private async jsonPages<T extends object>(pages: AsyncIterable<ListPage<T>>): Promise<void> {
    const out = this.io.stdout;
    let count = 0;
    for await (const page of pages) {
      if (page.items.length === 0) continue;
      const array = Buffer.from(JSON.stringify(page.items, null, 2));
      out.write(count === 0 ? '[\n' : ',\n');
      out.write(array.subarray(2, array.length - 2));
      count += page.items.length;
    }
    out.write(count === 0 ? '[]\n' : '\n]\n');
  }

  /** The table waits for every row: its columns are fitted to all of them. */
  private async tablePages<T extends object>(pages: AsyncIterable<ListPage<T>>, view: ListView<T>): Promise<void> {
    const rows: string[][] = [];
    let last: ListPage<T> | undefined;
    let count = 0;
    for await (const page of pages) {
      last = page;
      count += page.items.length;
      for (const item of page.items) {
        rows.push(view.columns.map((c) => (c.date ? readableDate(c.value(item)) : textCell(c.value(item)))));
      }
    }
    if (rows.length === 0) {
      this.info(`no ${view.noun} found`);
      return;
    }
    const shown = view.columns.map((c, i) => !c.optional || rows.some((row) => row[i] !== ''));
    if (shown.includes(false)) {
      view = { ...view, columns: view.columns.filter((_, i) => shown[i]) };
      for (let r = 0; r < rows.length; r++) rows[r] = (rows[r] as string[]).filter((_, i) => shown[i]);
    }
    // The first column is the id: a cut id is useless, a cut name still reads.
    const fits = view.columns.map(
      (c, i): ColumnFit => c.fit ?? (i === 0 || c.header === 'id' ? 'copy' : c.date ? 'whole' : 'text'),
    );
    this.io.stdout.write(
      await this.table(
        view.columns.map((c) => c.header.toUpperCase()),
        rows,
        '',
        fits,
      ),
    );
    if (last) this.info(footer(last, count, view), 'dim');
  }

  /** One record: aligned `field  value` lines on a TTY, `field<TAB>value` piped, or JSON. */
  async record(record: Record<string, unknown>, idKey = 'id'): Promise<void> {
    if (this.fields && this.mode !== 'ids') {
      const { known, noun } = this.documented ?? { known: [], noun: 'this record' };
      checkFields(this.fields, known, noun, Object.keys(record));
      record = pickFields(record, this.fields);
    }
    if (this.isData || this.jq) await this.data(record);
    else await this.drawRecord(record, idKey);
  }

  /** One record in a human mode: aligned fields, `field<TAB>value`, or its id. */
  private async drawRecord(record: Record<string, unknown>, idKey = 'id'): Promise<void> {
    if (this.mode === 'ids') {
      this.io.stdout.write(`${textCell(record[idKey])}\n`);
      return;
    }
    await this.prepareColor();
    const scalars = Object.entries(record).filter(([, value]) => !isRecordArray(value));
    const nested = Object.entries(record).filter(([, value]) => isRecordArray(value)) as [
      string,
      Record<string, unknown>[],
    ][];
    if (this.mode === 'tsv') {
      for (const [key, value] of scalars) this.io.stdout.write(`${safeText(key)}\t${textCell(value)}\n`);
      for (const [key, value] of nested) this.io.stdout.write(`${safeText(key)}\t${safeText(JSON.stringify(value))}\n`);
      return;
    }
    const width = Math.max(...scalars.map(([key]) => safeText(key).length), 0);
    for (const [key, value] of scalars) {
      const text = looksLikeTimestamp(value) ? readableDate(value) : textCell(value);
      this.io.stdout.write(`${this.paint('dim', safeText(key).padEnd(width))}  ${text}\n`);
    }
    for (const [key, items] of nested) {
      this.io.stdout.write(`\n${this.paint('bold', `${safeText(key)} (${items.length})`)}\n`);
      if (items.length === 0) continue;
      const headers = [...new Set(items.flatMap((item) => Object.keys(item)))];
      const rows = items.map((item) =>
        headers.map((h) => (looksLikeTimestamp(item[h]) ? readableDate(item[h]) : textCell(item[h]))),
      );
      const fits = headers.map(
        (h): ColumnFit =>
          h === 'id' || h.endsWith('_id')
            ? 'copy'
            : items.some((item) => looksLikeTimestamp(item[h]))
              ? 'whole'
              : 'text',
      );
      this.io.stdout.write(
        await this.table(
          headers.map((h) => safeText(h.toUpperCase())),
          rows,
          '  ',
          fits,
        ),
      );
    }
  }

  /**
   * A borderless table (gh style) fitted to the terminal width, measured in cells. A row is one
   * line and never wraps. When the table is too wide: columns no row fills are dropped, free text
   * shrinks evenly (widest first, down to a few letters); then dates and less important columns are
   * dropped whole; then commands leave the table and are printed whole as lines below it; only then
   * does free text shrink further, and at last it is dropped. Ids are never cut.
   */
  async table(headers: string[], rows: string[][], prefix = '', fits: ColumnFit[] = []): Promise<string> {
    const cells = await loadCells();
    // A table row is one line: a newline inside a cell would split it, and an escape sequence would
    // act on the terminal. Cells from textCell are safe already; safeText leaves safe text as is.
    rows = rows.map((row) => row.map(safeText));
    const fitOf = (i: number): ColumnFit => fits[i] ?? 'text';
    const natural = headers.map((h, i) => Math.max(cells.width(h), ...rows.map((row) => cells.width(row[i] ?? ''))));
    let columns = headers.map((_, i) => i);
    let widths = [...natural];
    // Lays `columns` out from their natural widths, free text shrunk evenly down to `floor` cells.
    const fitsIn = (floor: number): boolean => {
      widths = [...natural];
      const room = this.io.columns - prefix.length - GAP * (columns.length - 1);
      const total = () => columns.reduce((sum, i) => sum + (widths[i] ?? 0), 0);
      const text = columns.filter((i) => fitOf(i) === 'text');
      while (total() > room) {
        const widest = text.reduce<number | undefined>(
          (best, i) => (best === undefined || (widths[i] ?? 0) > (widths[best] ?? 0) ? i : best),
          undefined,
        );
        if (widest === undefined || (widths[widest] ?? 0) <= floor) return false;
        widths[widest] = (widths[widest] ?? 0) - 1;
      }
      return true;
    };
    const without = (i: number): void => {
      columns = columns.filter((c) => c !== i);
    };
    let below: number[] = [];
    if (!fitsIn(Infinity)) columns = columns.filter((i) => rows.some((row) => (row[i] ?? '') !== ''));
    if (!fitsIn(MIN_TEXT_CELLS)) {
      // Dropped rather than cut (a cut date is useless), last column first, until the rest fits.
      for (const i of [...columns].reverse()) {
        if (fitOf(i) !== 'whole' && fitOf(i) !== 'extra') continue;
        without(i);
        if (fitsIn(MIN_TEXT_CELLS)) break;
      }
    }
    if (!fitsIn(MIN_TEXT_CELLS)) {
      below = columns.filter((i) => fitOf(i) === 'command');
      for (const i of below) without(i);
    }
    if (!fitsIn(MIN_TEXT_CELLS) && !fitsIn(TINY_TEXT_CELLS)) {
      for (const i of [...columns].reverse()) {
        if (fitOf(i) !== 'text') continue;
        without(i);
        if (fitsIn(TINY_TEXT_CELLS)) break;
      }
      // Only ids are left: if even they do not fit, a row wraps rather than lose a digit.
      fitsIn(TINY_TEXT_CELLS);
    }
    const line = (row: string[], paint: (text: string) => string = (text) => text): string =>
      prefix +
      columns
        .map((i, n) => {
          const width = widths[i] ?? 0;
          const cell = fitOf(i) === 'text' ? cells.fit(row[i] ?? '', width) : (row[i] ?? '');
          const pad = n === columns.length - 1 ? '' : ' '.repeat(Math.max(0, width - cells.width(cell)) + GAP);
          return paint(cell) + pad;
        })
        .join('')
        .trimEnd();
    const lines = [line(headers, (text) => (text ? this.paint('bold', text) : text)), ...rows.map((row) => line(row))];
    // A command that does not fit a row is printed whole on a line of its own, in the rows' order.
    for (const i of below) {
      lines.push(
        '',
        prefix + this.paint('bold', headers[i] ?? ''),
        ...rows.flatMap((row) => (row[i] ? [prefix + row[i]] : [])),
      );
    }
    return `${lines.join('\n')}\n`;
  }
}

/**
 * How a table column gives way when the terminal is narrow: `text` (a name) is shortened with an
 * ellipsis, `whole` (a date) and `extra` (a detail) are dropped rather than cut, `command` (one to
 * copy) moves below the table, `copy` (an id, a file name) is never cut.
 */
export type ColumnFit = 'copy' | 'command' | 'whole' | 'extra' | 'text';

/**
 * A terminal that says it is 0 columns wide (a pseudo-terminal never sized): ora would clear the
 * spinner's line by moving up once per line it thinks it wrapped to, without end.
 */
function zeroWidth(stream: unknown): boolean {
  return (stream as { columns?: unknown }).columns === 0;
}

/** Work that takes longer than this gets a spinner on a terminal (whileSlow). */
const SLOW_MS = 1_000;
const GAP = 2;
const MIN_TEXT_CELLS = 8;
const TINY_TEXT_CELLS = 3;

/**
 * The pages with only `fields`, checked first against the documented fields and those the first
 * page's records hold (exit 2 before any output, no later page asked for).
 */
async function* pickFromPages<T extends object>(
  pages: AsyncIterable<ListPage<T>>,
  fields: readonly string[],
  documented: readonly string[],
  noun: string,
): AsyncGenerator<ListPage<Record<string, unknown>>> {
  let first = true;
  for await (const page of pages) {
    if (first) checkFields(fields, documented, noun, recordKeys(page.items as unknown as Record<string, unknown>[]));
    first = false;
    yield { ...page, items: page.items.map((item) => pickFields(item, fields)) };
  }
}

/** `--fields`' columns: one per field, headed by its name; `…_at` fields are dates. */
function fieldColumns(fields: readonly string[]): Column<Record<string, unknown>>[] {
  return fields.map((name) => ({
    header: name,
    value: (record) => record[name],
    ...(name.endsWith('_at') ? { date: true } : {}),
  }));
}

function footer(last: ListPage<unknown>, count: number, view: ListView<never>): string {
  if (view.all) return `${count} ${count === 1 ? singular(view.noun) : view.noun}`;
  if (last.total !== undefined) {
    const pages = Math.max(1, Math.ceil(last.total / last.perPage));
    return `page ${last.page} of ${pages} (${last.total} total)`;
  }
  return count >= last.perPage ? `page ${last.page} (more with --page ${last.page + 1} or --all)` : `page ${last.page}`;
}

/** Every key of the records, in the order first seen. */
function recordKeys(records: readonly Record<string, unknown>[]): string[] {
  return [...new Set(records.flatMap((record) => Object.keys(record)))];
}

/** jq's results as one value: a single result as itself, several as a list. */
function oneValue(results: unknown[]): unknown {
  return results.length === 1 ? results[0] : results;
}

/** What CSV makes rows of: an array's records, one record, or anything else as a one-column `value`. */
function asRows(value: unknown): Record<string, unknown>[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => (isPlainObject(item) ? item : { value: item }));
}

function isRecordArray(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'object' && v !== null);
}

/** A value as one line of terminal-safe text: a list item by item, an object by its label. */
function textCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return safeText(value.map(labelOf).join(', '));
  return safeText(labelOf(value));
}

/**
 * What names a value in a cell: an object (an artist, an identifier, a tag) by its `name`, `value`
 * or `tag`, whichever it has; any other object as JSON, which escapes C0 controls (safeText then
 * handles C1 controls and bidi overrides).
 */
function labelOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  for (const key of ['name', 'value', 'tag']) {
    const label = record[key];
    if (typeof label === 'string' || typeof label === 'number') return String(label);
  }
  return JSON.stringify(value);
}

const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function looksLikeTimestamp(value: unknown): value is string {
  return typeof value === 'string' && TIMESTAMP_RE.test(value);
}

/** `2026-01-15 10:00` in the local time zone; anything that is not a timestamp as is. */
export function readableDate(value: unknown): string {
  if (!looksLikeTimestamp(value)) return textCell(value);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return textCell(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
