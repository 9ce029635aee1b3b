// Text from the service made safe for a terminal. A name, message or file name is data: printed raw,
// `ESC ] 0 ; … BEL` retitles the window, `ESC [ 2 J` clears the screen, a line feed forges a line
// of pds's own output, a bidi override reorders what the reader sees. Each such character is shown
// as an escape instead (`\x1b`, `\n`, `\u{202e}`), so the text stays readable and nothing acts on it.
// --json output never goes through here: JSON escapes control characters itself, and stays exact.
// Also how a size is written for a person (formatBytes), the one place for it.

// C0 controls, DEL, C1 controls, and the Unicode controls that reorder text.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/** `text` with every control character and escape sequence introducer shown as text. */
export function safeText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/**
 * Text printed as lines (jq's raw output, a service's answer that is not JSON): like safeText, but
 * line feeds and tabs stay, since they are the layout of that text; a carriage return does not.
 */
export function safeLines(text: string): string {
  return text.replace(UNSAFE, (char) => (char === '\n' || char === '\t' ? char : visible(char)));
}

/** What JSON.stringify leaves raw and a terminal acts on: DEL, C1 controls, bidi controls. */
const JSON_RAW_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text for a terminal: the characters JSON leaves raw that a terminal acts on written as `\u`
 * escapes, which read back as the same string (they can only be inside a JSON string).
 */
export function safeJson(text: string): string {
  return text.replace(JSON_RAW_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `12.3 MiB`, `512 KiB`, `42 B`: sizes as uploads and downloads show them (the units the 50 MiB upload limit is stated in). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

// What a model reads and a person does not see, in one table: every Default_Ignorable_Code_Point
// (Unicode's own list of what renders as nothing: zero-width and bidi controls, the soft hyphen,
// variation selectors U+FE00–FE0F and U+E0100–E01EF, the tag characters U+E0000–E007F that spell
// hidden ASCII, the combining grapheme joiner, Hangul and Khmer fillers), every other format
// character (category Cf), the line and paragraph separators U+2028/2029, and C0/C1 controls other
// than line feed and tab. Text for an agent loses them outright (shown as escapes, they would still
// be read as text); the count says that something was there.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2028\u2029\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu;

/** `text` without invisible characters, and how many there were (in code points). */
export function stripInvisible(text: string): { text: string; removed: number } {
  let removed = 0;
  const cleaned = text.replace(INVISIBLE, () => {
    removed++;
    return '';
  });
  return { text: cleaned, removed };
}

/** The singular of a regular English plural, as the service's and pds's nouns are: entities → entity, artists → artist. */
export function singular(noun: string): string {
  return noun.endsWith('ies') ? `${noun.slice(0, -3)}y` : noun.replace(/s$/, '');
}

/** `--include a,b --include c` → ['a', 'b', 'c']: words separated by commas, blanks dropped. */
export function commaList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return (typeof value === 'string' ? [value] : value)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}
