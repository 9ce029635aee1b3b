// The names of downloaded files: a name the service gives made safe to create in a directory on
// any system, and the names given out in one run kept apart.

/** Names longer than this many bytes of UTF-8 are cut: most file systems stop at 255 bytes, and a clash suffix or a temporary ending needs room. */
const MAX_NAME_BYTES = 120;

/** CON, PRN, AUX, NUL, COM0-9, LPT0-9 (and the superscript digits Windows also takes), alone or before a dot. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\.|$)/i;

/**
 * A file name that is safe to create in the target directory: no path separator, no `..`, no
 * control or invisible formatting character, no leading dot, not empty; `.pdf` added when the name
 * has no extension of its own.
 */
export function safeFileName(raw: string | null | undefined, fallback: string): string {
  let name = (raw ?? '')
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    // Separators of any system, and characters Windows refuses in names.
    .replace(/[/\\<>:"|?*]/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
    const extension = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? '';
    name = cutToBytes(name.slice(0, name.length - extension.length), MAX_NAME_BYTES - extension.length) + extension;
  }
  if (name === '' || /^_*$/.test(name.replace(/\.pdf$/i, ''))) name = fallback;
  if (!/\.[A-Za-z0-9]{1,8}$/.test(name)) name += '.pdf';
  // Windows opens a device, not a file, for these names whatever the extension (`NUL.pdf` too).
  if (WINDOWS_DEVICE.test(name)) name = `_${name}`;
  return name;
}

/** The longest start of `text` that is at most `limit` bytes of UTF-8, cut between code points. */
function cutToBytes(text: string, limit: number): string {
  let bytes = 0;
  let end = 0;
  for (const codePoint of text) {
    bytes += Buffer.byteLength(codePoint);
    if (bytes > limit) break;
    end += codePoint.length;
  }
  return text.slice(0, end);
}

/** Names given out in one run: a clash (compared without case, as macOS and Windows do) gets " (2)", " (3)"… */
export class NameClaims {
  private readonly taken = new Set<string>();

  claim(name: string): string {
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const extension = dot > 0 ? name.slice(dot) : '';
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
