// Text measured in terminal cells, not characters: a CJK character or an emoji takes two cells, a
// combining mark none. string-width is ESM and not needed at start-up, so it is loaded by the code
// that draws (tables, live lines), not by `pds --version`.

export interface Cells {
  /** How many terminal cells `text` takes (ANSI color codes take none). */
  width(text: string): number;
  /** `text` cut to at most `cells` cells, the last one an ellipsis; whole characters only. */
  fit(text: string, cells: number): string;
}

let loaded: Promise<Cells> | undefined;

export function loadCells(): Promise<Cells> {
  loaded ??= import('string-width').then(({ default: stringWidth }) => {
    const graphemes = new Intl.Segmenter();
    return {
      width: stringWidth,
      fit(text, cells) {
        if (stringWidth(text) <= cells) return text;
        let kept = '';
        let used = 0;
        for (const { segment } of graphemes.segment(text)) {
          const width = stringWidth(segment);
          if (used + width > cells - 1) break;
          kept += segment;
          used += width;
        }
        return cells > 0 ? `${kept}…` : '';
      },
    };
  });
  return loaded;
}
