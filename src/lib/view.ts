// How a person sees a resource: the columns of its list. A verb hands a view to the renderer
// (output.ts), which draws it on a terminal or writes the data formats instead.
import type { ColumnFit } from './table-layout.js';

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
