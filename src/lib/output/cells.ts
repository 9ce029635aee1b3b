// Text measured in terminal cells, not characters: a CJK character or an emoji takes two cells, a
// combining mark none. string-width is ESM and not needed at start-up, so it is loaded by the code
// that draws (tables, live lines), not by `pds --version`.

export interface Cells {
  /** How many terminal cells `text` takes (ANSI color codes take none). */
  width(text: string): number;
  /** `text` cut to at most `cells` cells, the last one an ellipsis; whole characters only. */
  fit(text: string, cells: number): string;
  /**
   * `text` cut in its middle to at most `cells` cells: its start and its end (a file's extension)
   * kept either side of an ellipsis.
   */
  fitMiddle(text: string, cells: number): string;
  /** The longest start of `text` that takes at most `cells` cells (at least one character). */
  take(text: string, cells: number): string;
}

let loaded: Promise<Cells> | undefined;

export function loadCells(): Promise<Cells> {
  loaded ??= import('string-width').then(({ default: stringWidth }) => {
    const graphemes = new Intl.Segmenter();
    const segments = (text: string) => [...graphemes.segment(text)].map(({ segment }) => segment);
    const take = (parts: string[], cells: number): string => {
      let kept = '';
      let used = 0;
      for (const segment of parts) {
        const width = stringWidth(segment);
        if (used + width > cells) break;
        kept += segment;
        used += width;
      }
      return kept;
    };
    const fit = (text: string, cells: number): string => {
      if (stringWidth(text) <= cells) return text;
      return cells > 0 ? `${take(segments(text), cells - 1)}…` : '';
    };
    return {
      width: stringWidth,
      fit,
      fitMiddle(text, cells) {
        if (stringWidth(text) <= cells) return text;
        if (cells <= 2) return fit(text, cells);
        const parts = segments(text);
        const dot = text.lastIndexOf('.');
        const extension = dot > 0 && text.length - dot <= 6 ? text.length - dot : 0;
        // The end keeps the extension and about a third of the room; the start the rest.
        const endCells = Math.min(cells - 2, Math.max(extension, Math.floor((cells - 1) / 3)));
        let endText = '';
        let used = 0;
        for (let k = parts.length - 1; k >= 0; k--) {
          const segment = parts[k] ?? '';
          if (used + stringWidth(segment) > endCells) break;
          endText = segment + endText;
          used += stringWidth(segment);
        }
        const start = take(parts, cells - 1 - stringWidth(endText));
        return `${start}…${endText}`;
      },
      take(text, cells) {
        const parts = segments(text);
        return take(parts, cells) || (parts[0] ?? '');
      },
    };
  });
  return loaded;
}
