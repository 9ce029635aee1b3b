// The upload forms of docs/service.md, "Uploads" as the emulator receives them: multipart, streamed
// through busboy, or JSON with base64 content. An upload is checked as it arrives: only the byte
// count, the first bytes (PDF magic) and the last bytes (%%EOF trailer) are kept, so a 50 MB
// multipart file never sits in memory, and an oversized or non-PDF upload is refused mid-stream.
// How a body is streamed, and a refused one answered, is request-body.ts's.
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { EXTRACTION_NAMES as EXTRACTIONS, type Extraction as ExtractionName } from './vocabulary.js';
import { HttpError } from './http.js';
import { contentLength, streamBody } from './request-body.js';
import { JsonUploadScanner } from './json-upload.js';
import type { DocumentKind } from './store.js';

/** docs/service.md, "Two forms": "50 MB maximum", read as MiB. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
const TOO_LARGE = 'file exceeds the 50 MB limit';
// Base64 grows the file by 4/3; fileName, fileType and extractions fit in the slack.
const MAX_JSON_UPLOAD_BYTES = Math.ceil(MAX_FILE_BYTES / 3) * 4 + 1024 * 1024;
// Part headers and the small form fields around the file.
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;
const PDF_MAGIC = Buffer.from('%PDF-');
/** A PDF's trailer sits in its last 1024 bytes (ISO 32000-1, 7.5.5). */
const TAIL_BYTES = 1024;
// What clients declare for a PDF: its own type, or "unknown" from clients that do not guess types
// (the magic bytes decide then). Any other type declares a file that is not a PDF.
const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf', 'application/octet-stream']);

export type BodyForm = 'multipart' | 'json';

/** What an upload carried, once every byte has arrived and passed the checks. */
export interface ReceivedUpload {
  form: BodyForm;
  fileName: string;
  size: number;
  /** The last bytes of the file, where a PDF keeps its %%EOF trailer. */
  tail: Buffer;
  /** Contract uploads only; undefined when the request had no extractions field. */
  extractions?: ExtractionName[];
}

export interface ReceiveOptions {
  kind: DocumentKind;
  /** Called with the body bytes received so far, after each chunk that passed the checks. */
  onBytes?: (received: number) => void;
  /** Called with each chunk of the file itself, once it passed the checks (the storage keeps it). */
  onFileChunk?: (chunk: Buffer) => void;
  /**
   * Called once every check that makes an upload a 400 is decided and passed, apart from what only
   * the rest of the body can break (the size limit crossed mid-file): an event stream may open.
   * Multipart: at the file's first bytes, the fields before them valid (clients send fields
   * first). JSON: once the body is complete, since a member after `file` can still be missing or
   * invalid (`{"file": …, "fileName": …}` is the common order).
   */
  onReady?: () => void;
}

const mediaType = (req: IncomingMessage): string =>
  (req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';

/**
 * The body form of an upload, from its headers: 400 for another content type, or for a declared
 * length that cannot hold a file of at most 50 MB, before a byte of the body is read.
 */
export function uploadForm(req: IncomingMessage): BodyForm {
  const type = mediaType(req);
  let form: BodyForm;
  if (type === 'multipart/form-data') form = 'multipart';
  else if (type === 'application/json') form = 'json';
  else throw new HttpError(400, `Content-Type must be multipart/form-data or application/json, not '${type}'`);
  const declared = contentLength(req);
  const cap = form === 'json' ? MAX_JSON_UPLOAD_BYTES : MAX_FILE_BYTES + MULTIPART_OVERHEAD_BYTES;
  if (declared !== undefined && declared > cap) throw new HttpError(400, TOO_LARGE);
  return form;
}

const unsupportedType = (declared: string): HttpError =>
  new HttpError(400, `unsupported file type '${declared}': only PDF files are accepted`);

const notPdf = (): HttpError =>
  new HttpError(400, 'unsupported file type: only PDF files are accepted (the file does not start with %PDF-)');

/**
 * The `extractions` of a contract upload: a JSON array (a string in multipart) of known names,
 * The spec form's by default (docs/service.md, "Uploads"); the signed-URL mint passes the deployed service's.
 */
export function parseExtractions(
  kind: DocumentKind,
  raw: unknown,
  names: readonly ExtractionName[] = EXTRACTIONS,
): ExtractionName[] {
  // docs/service.md, "Uploads" gives statements no extractions; refusing them tells the caller that nothing would run.
  if (kind === 'statement') throw new HttpError(400, { extractions: ['statement uploads take no extractions'] });
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
    }
  }
  if (!Array.isArray(value) || !value.every((name): name is string => typeof name === 'string')) {
    throw new HttpError(400, { extractions: ['extractions must be a JSON array of extraction names'] });
  }
  const known = new Set<string>(names);
  const unknown = value.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new HttpError(400, {
      extractions: unknown.map((name) => `unknown extraction '${name}'; valid: ${names.join(', ')}`),
    });
  }
  return [...new Set(value as ExtractionName[])];
}

/** Whether a PDF ends with its %%EOF marker (trailing whitespace allowed). */
export function hasPdfTrailer(tail: Buffer): boolean {
  return /%%EOF[\s\0]*$/.test(tail.toString('latin1'));
}

/** Keeps the count, the first bytes and the last bytes of a file arriving in chunks. */
class FileProbe {
  size = 0;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(private readonly onVerified?: () => void) {}

  /** Adds a chunk; throws 400 as soon as the file is too large or cannot be a PDF. */
  push(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > MAX_FILE_BYTES) throw new HttpError(400, TOO_LARGE);
    if (this.head.length < PDF_MAGIC.length) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, PDF_MAGIC.length - this.head.length)]);
      if (!PDF_MAGIC.subarray(0, this.head.length).equals(this.head)) throw notPdf();
      if (this.head.length === PDF_MAGIC.length) this.onVerified?.();
    }
    // Copied, so the probe never pins a large chunk in memory.
    this.tail = Buffer.from(Buffer.concat([this.tail, chunk.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES));
  }

  /** The file is complete: returns its last bytes, or throws when it cannot be a PDF. */
  finish(): Buffer {
    if (this.size === 0) throw new HttpError(400, { file: ['file is empty'] });
    if (this.head.length < PDF_MAGIC.length) throw notPdf();
    return this.tail;
  }
}

/** Reads an upload body (docs/service.md, "Uploads"); rejects with an HttpError (400) at the first problem. */
export function receiveUpload(req: IncomingMessage, form: BodyForm, options: ReceiveOptions): Promise<ReceivedUpload> {
  return form === 'json' ? receiveJsonUpload(req, options) : receiveMultipart(req, options);
}

function receiveMultipart(
  req: IncomingMessage,
  { kind, onBytes, onFileChunk, onReady }: ReceiveOptions,
): Promise<ReceivedUpload> {
  return streamBody<ReceivedUpload>(req, onBytes, (settle) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fields: 8, parts: 16, fieldSize: 64 * 1024 } });
    } catch (error) {
      throw new HttpError(400, `malformed multipart body: ${(error as Error).message}`);
    }
    const probe = new FileProbe(onReady);
    let fileName: string | undefined;
    let fileEnded = false;
    let extractions: ExtractionName[] | undefined;
    const fail = (error: unknown): void => {
      if (settle.settled) return;
      settle.reject(error);
      parser.destroy();
    };
    const guard = (step: () => void): void => {
      if (settle.settled) return;
      try {
        step();
      } catch (error) {
        fail(error);
      }
    };

    parser.on('file', (name, stream, info) => {
      // Destroying the parser errors the open file stream; the upload has failed already then.
      stream.on('error', () => undefined);
      stream.on('data', (chunk: Buffer) =>
        guard(() => {
          probe.push(chunk);
          onFileChunk?.(chunk);
        }),
      );
      stream.on('end', () => {
        fileEnded = true;
      });
      guard(() => {
        if (name !== 'file')
          throw new HttpError(400, { file: [`unexpected file field '${name}': send the PDF as 'file'`] });
        const type = info.mimeType.toLowerCase();
        if (type !== '' && !PDF_TYPES.has(type)) throw unsupportedType(type);
        fileName = info.filename || 'upload.pdf';
      });
    });
    parser.on('field', (name, value, info) =>
      guard(() => {
        if (name !== 'extractions') return;
        if (info.valueTruncated) throw new HttpError(400, { extractions: ['extractions is too long'] });
        extractions = parseExtractions(kind, value);
      }),
    );
    parser.on('filesLimit', () => fail(new HttpError(400, { file: ['send exactly one file'] })));
    parser.on('fieldsLimit', () => fail(new HttpError(400, 'too many form fields')));
    parser.on('partsLimit', () => fail(new HttpError(400, 'too many form parts')));
    parser.on('error', (error: Error) => fail(new HttpError(400, `malformed multipart body: ${error.message}`)));
    // Busboy closes once the last part is parsed, which is after the request's end.
    parser.on('close', () =>
      guard(() => {
        if (fileName === undefined || !fileEnded) throw new HttpError(400, { file: ['file is required'] });
        const tail = probe.finish();
        settle.resolve({ form: 'multipart', fileName, size: probe.size, tail, ...(extractions && { extractions }) });
      }),
    );
    return {
      write: (chunk) => (parser.write(chunk) ? undefined : new Promise((resume) => parser.once('drain', resume))),
      end: () => parser.end(),
    };
  });
}

function receiveJsonUpload(
  req: IncomingMessage,
  { kind, onBytes, onFileChunk, onReady }: ReceiveOptions,
): Promise<ReceivedUpload> {
  const limit = { maxBytes: MAX_JSON_UPLOAD_BYTES, tooLarge: TOO_LARGE };
  return streamBody<ReceivedUpload>(
    req,
    onBytes,
    (settle) => {
      // No onReady at the PDF check: the members still to come decide as much as the file's start.
      const probe = new FileProbe();
      let fileName: string | undefined;
      let extractions: ExtractionName[] | undefined;
      // Each member is checked as it arrives, so a bad one before the file is refused before it.
      const scanner = new JsonUploadScanner({
        field(name, value) {
          if (name === 'file') throw new HttpError(400, { file: ['file is required: the base64-encoded PDF'] });
          if (name === 'fileName') {
            if (typeof value !== 'string' || value.trim() === '')
              throw new HttpError(400, { fileName: ['fileName is required'] });
            // Only the base name: a client may send a local path.
            fileName = value.split(/[\\/]/).pop() as string;
          } else if (name === 'fileType') {
            if (typeof value !== 'string') throw new HttpError(400, { fileType: ['fileType must be a MIME type'] });
            if (!PDF_TYPES.has(value.toLowerCase())) throw unsupportedType(value);
          } else if (name === 'extractions' && value !== null) {
            extractions = parseExtractions(kind, value);
          }
        },
        fileBytes: (bytes) => {
          probe.push(bytes);
          onFileChunk?.(bytes);
        },
      });
      return {
        write: (chunk) => void scanner.push(chunk),
        end: () => {
          scanner.end();
          const errors: Record<string, string[]> = {};
          if (!scanner.fileSeen || probe.size === 0) errors.file = ['file is required: the base64-encoded PDF'];
          if (fileName === undefined) errors.fileName = ['fileName is required'];
          if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
          const tail = probe.finish();
          onReady?.();
          settle.resolve({
            form: 'json',
            fileName: fileName as string,
            size: probe.size,
            tail,
            ...(extractions && { extractions }),
          });
        },
      };
    },
    limit,
  );
}
