// `pds sandbox ls [path]`: the entries of a sandbox directory. Like ls: columns on a terminal, one
// name per line when piped, a file's own path when given a file.
import type { Context } from '../../lib/context.js';
import { ROOT, openSandbox, readPath } from './session.js';
import type { ls } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof ls>;

const GAP = 2;

export async function run(opts: Options, ctx: Context): Promise<void> {
  const path = opts.args[0] ?? ROOT;
  const sandbox = await openSandbox(ctx);
  const entry = await readPath(ctx, sandbox, path);
  const names = entry.type === 'directory' ? entry.entries : [path];
  // --json prints the same list as the text forms (directories keep their `/`), not the service's
  // object: for a file that object would carry the whole content.
  if (await ctx.output.asData(names)) return;
  if (!ctx.io.stdoutIsTTY || ctx.settings.quiet) {
    ctx.output.write(names.map((name) => `${name}\n`).join(''));
    return;
  }
  await ctx.output.prepareColor();
  const lines = columns(names, ctx.io.columns).map((row) =>
    row
      .map(({ name, width }) => {
        const padded = name.padEnd(width);
        return name.endsWith('/') ? ctx.output.paint('bold', name) + padded.slice(name.length) : padded;
      })
      .join('')
      .trimEnd(),
  );
  ctx.output.write(lines.map((line) => `${line}\n`).join(''));
}

/**
 * The names in as many columns as fit the width, filled top to bottom like `ls -C`; each cell
 * carries its column's width including the gap (none after the last column).
 */
export function columns(names: readonly string[], width: number): { name: string; width: number }[][] {
  if (names.length === 0) return [];
  // No more columns than the shortest name allows: keeps a directory of thousands linear.
  const shortest = names.reduce((min, name) => Math.min(min, name.length), Infinity);
  const most = Math.max(1, Math.min(names.length, Math.floor((width + GAP) / (shortest + GAP))));
  for (let count = most; count >= 1; count--) {
    const rows = Math.ceil(names.length / count);
    // Fewer columns than asked for can result (7 names in 6 columns need 2 rows, so 4 columns).
    const used = Math.ceil(names.length / rows);
    const widths: number[] = [];
    for (let col = 0; col < used; col++) {
      const slice = names.slice(col * rows, (col + 1) * rows);
      const widest = slice.reduce((max, name) => Math.max(max, name.length), 0);
      widths.push(widest + (col < used - 1 ? GAP : 0));
    }
    const total = widths.reduce((a, b) => a + b, 0);
    if (total <= width || count === 1) {
      const grid: { name: string; width: number }[][] = [];
      for (let row = 0; row < rows; row++) {
        const cells: { name: string; width: number }[] = [];
        for (let col = 0; col < used; col++) {
          const name = names[col * rows + row];
          if (name !== undefined) cells.push({ name, width: widths[col] ?? name.length });
        }
        grid.push(cells);
      }
      return grid;
    }
  }
  return [];
}
