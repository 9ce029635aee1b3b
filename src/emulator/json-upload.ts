// The JSON upload body of docs/service.md, "Uploads", `{"file": "<base64>", "fileName": …, "fileType": …,
// "extractions": […]}`, read as it arrives: the `file` string is base64-decoded chunk by chunk and
// handed on, so a 66 MiB body never sits in memory whole (eight at once took 895 MB buffered).
// Streaming JSON parsers hand a string value over whole, which is exactly what must not happen to
// `file`; so this scanner knows the one shape it accepts: an object whose `file` member streams
// and whose other members are small values, each parsed with JSON.parse once it has arrived.
import { HttpError } from './http.js';

export interface JsonUploadEvents {
  /** A member other than a string `file`, parsed. */
  field(name: string, value: unknown): void;
  /** Decoded bytes of the `file` string, in order. */
  fileBytes(bytes: Buffer): void;
}

/** A member's value other than the file: fileName, fileType, extractions and the like. */
const MAX_SMALL_VALUE_BYTES = 64 * 1024;
const MAX_KEY_BYTES = 1024;

const notJson = () => new HttpError(400, 'the request body is not valid JSON');
const notBase64 = () => new HttpError(400, { file: ['file must be base64-encoded'] });

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

type State =
  | 'begin'
  | 'key-or-end'
  | 'key'
  | 'colon'
  | 'value'
  | 'small'
  | 'file'
  | 'file-escape'
  | 'after-value'
  | 'done';

export class JsonUploadScanner {
  private state: State = 'begin';
  /** After `{` (a `}` may close an empty object) rather than after `,` (a key must follow). */
  private first = true;
  private key = '';
  private bytes: number[] = [];
  private small: Buffer[] = [];
  private smallSize = 0;
  private inString = false;
  private escaped = false;
  private depth = 0;
  /** Base64 characters not yet decoded (fewer than 4, between chunks). */
  private pending = '';
  private padded = false;
  /** Whether a `file` string member was seen. */
  fileSeen = false;

  constructor(private readonly events: JsonUploadEvents) {}

  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'file') {
        i = this.scanFile(chunk, i);
        continue;
      }
      if (this.state === 'small') {
        i = this.scanSmall(chunk, i);
        continue;
      }
      this.step(chunk[i] as number);
      i++;
    }
  }

  /** The body ended: it must have been one complete object. */
  end(): void {
    if (this.state !== 'done') throw notJson();
  }

  private step(b: number): void {
    switch (this.state) {
      case 'begin':
        if (isSpace(b)) return;
        if (b !== 0x7b) throw new HttpError(400, 'the request body must be a JSON object');
        this.state = 'key-or-end';
        return;
      case 'key-or-end':
        if (isSpace(b)) return;
        if (b === QUOTE) {
          this.state = 'key';
          this.bytes = [];
          this.escaped = false;
        } else if (b === 0x7d && this.first) this.state = 'done';
        else throw notJson();
        return;
      case 'key':
        if (this.bytes.length > MAX_KEY_BYTES)
          throw new HttpError(400, 'a member name of the request body is too long');
        if (b === QUOTE && !this.escaped) {
          try {
            this.key = JSON.parse(`"${Buffer.from(this.bytes).toString('utf8')}"`) as string;
          } catch {
            throw notJson();
          }
          this.state = 'colon';
          return;
        }
        this.escaped = b === BACKSLASH && !this.escaped;
        this.bytes.push(b);
        return;
      case 'colon':
        if (isSpace(b)) return;
        if (b !== 0x3a) throw notJson();
        this.state = 'value';
        return;
      case 'value':
        if (isSpace(b)) return;
        if (this.key === 'file' && b === QUOTE) {
          if (this.fileSeen) throw new HttpError(400, { file: ['send one file'] });
          this.fileSeen = true;
          this.state = 'file';
          return;
        }
        this.state = 'small';
        this.small = [];
        this.smallSize = 0;
        this.inString = false;
        this.escaped = false;
        this.depth = 0;
        this.scanSmall(Buffer.of(b), 0);
        return;
      case 'file-escape':
        // Line breaks in wrapped base64, and the `\/` some encoders write for `/`.
        if (b === 0x2f) this.decode('/');
        else if (b !== 0x6e && b !== 0x72 && b !== 0x74) throw notBase64();
        this.state = 'file';
        return;
      case 'after-value':
        if (isSpace(b)) return;
        if (b === 0x2c) {
          this.first = false;
          this.state = 'key-or-end';
        } else if (b === 0x7d) this.state = 'done';
        else throw notJson();
        return;
      case 'done':
        if (!isSpace(b)) throw notJson();
        return;
      default:
        throw notJson();
    }
  }

  /** Base64 up to the closing quote (or an escape), decoded in whole groups of four. */
  private scanFile(chunk: Buffer, from: number): number {
    const quote = chunk.indexOf(QUOTE, from);
    const backslash = chunk.indexOf(BACKSLASH, from);
    const stops = [quote, backslash].filter((n) => n >= 0);
    const stop = stops.length > 0 ? Math.min(...stops) : chunk.length;
    this.decode(chunk.toString('latin1', from, stop));
    if (stop === chunk.length) return stop;
    if (stop === quote) {
      this.flush();
      this.state = 'after-value';
    } else this.state = 'file-escape';
    return stop + 1;
  }

  private decode(text: string): void {
    const chars = text.replace(/\s+/g, '');
    if (chars === '') return;
    if (!/^[A-Za-z0-9+/_=-]*$/.test(chars)) throw notBase64();
    const pad = chars.indexOf('=');
    if ((this.padded && /[^=]/.test(chars)) || (pad >= 0 && /[^=]/.test(chars.slice(pad)))) throw notBase64();
    if (pad >= 0) this.padded = true;
    this.pending += chars;
    const whole = this.pending.length - (this.pending.length % 4);
    if (whole === 0) return;
    const bytes = Buffer.from(this.pending.slice(0, whole), 'base64');
    this.pending = this.pending.slice(whole);
    if (bytes.length > 0) this.events.fileBytes(bytes);
  }

  private flush(): void {
    if (this.pending.length === 1) throw notBase64();
    if (this.pending !== '') this.events.fileBytes(Buffer.from(this.pending, 'base64'));
    this.pending = '';
  }

  /** A small value: read until the `,` or `}` that ends it at depth 0, outside strings. */
  private scanSmall(chunk: Buffer, from: number): number {
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) this.inString = false;
        continue;
      }
      if (b === QUOTE) this.inString = true;
      else if (b === 0x5b || b === 0x7b) this.depth++;
      else if ((b === 0x5d || b === 0x7d) && this.depth > 0) this.depth--;
      else if (this.depth === 0 && (b === 0x2c || b === 0x7d)) {
        this.keep(chunk.subarray(from, i));
        this.finishSmall();
        this.state = 'after-value';
        return i;
      }
    }
    this.keep(chunk.subarray(from));
    return chunk.length;
  }

  private keep(part: Buffer): void {
    this.smallSize += part.length;
    if (this.smallSize > MAX_SMALL_VALUE_BYTES)
      throw new HttpError(400, `the member '${this.key}' of the request body is too long`);
    this.small.push(Buffer.from(part));
  }

  private finishSmall(): void {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(this.small).toString('utf8'));
    } catch {
      throw notJson();
    }
    this.small = [];
    this.events.field(this.key, value);
  }
}
