// The emulator's storage host: the files behind the download endpoints, served on a port of their
// own (another origin, as a deployed service's bucket is) at HMAC-signed URLs that expire. It keeps
// a log of whether each file request carried an Authorization header: a client must never send its
// service credentials to a storage host, and the tests assert that none did.
//
// Uploaded files are kept as files on disk, written chunk by chunk as they arrive (the emulator
// never holds an upload in memory): beside the --data file when there is one, so they survive a
// restart, else in a temporary directory removed when the emulator stops. Seeded records, and
// uploads whose file is gone, get a small generated PDF.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentKind, EmulatorState } from './store.js';
import { serveFile, serveLines, deny } from './storage-files.js';
import { startFile, receivePut } from './storage-puts.js';

export { findDocumentFile, type DocumentFile } from './storage-files.js';

/** One request the storage host received. */
export interface StorageRequest {
  method: string;
  path: string;
  /** Whether it carried an Authorization header (it never should). */
  authorization: boolean;
  /** The Accept header it sent. */
  accept?: string;
  status?: number;
}

/** Misbehaviour on demand, for tests of the client; each applies to every file request until reset. */
export interface StorageFaults {
  /** Answer this many more file requests 403 as if their URL had expired. */
  expire: number;
  /** Send the headers (with the full Content-Length) and this many bytes, then cut the connection. */
  cutAfterBytes?: number;
  /** Send the headers and this many bytes, then nothing more (the connection stays open). */
  stallAfterBytes?: number;
  /** Cut the connection of this many more upload PUTs once part of the body has come. */
  resetUploads?: number;
  /** Take in the body of this many more upload PUTs and never answer them (the connection stays open). */
  stallUploads?: number;
  /** Every lines export served as its header and its rows repeated to about this many bytes, without a Content-Length. */
  exportBytes?: number;
  /** Lines exports served otherwise, by statement id: what a storage host may send. */
  exports?: Map<number, ExportFault>;
}

/** How one lines export is served instead of as generated. */
export interface ExportFault {
  /** This text in place of the generated export (a ragged row, a repeated column…). */
  text?: string;
  /** Sent with this Content-Encoding (its Content-Length the encoded size). */
  encoding?: 'gzip' | 'deflate' | 'br';
  /** With `encoding`: only the first this many encoded bytes, then the body ends (no Content-Length): cut short. */
  cutAt?: number;
  /** With `cutAt`: the whole encoded body's Content-Length is sent, and the connection closed after cutAt bytes. */
  announced?: boolean;
  /** With `encoding`: this byte of the encoded body inverted (a corrupt body). */
  corruptAt?: number;
  /** One byte every this many ms, without a Content-Length. */
  trickleMs?: number;
  /** Its header, then the same rows again and again without end (no Content-Length), until the client goes. */
  endless?: boolean;
}

export interface Storage {
  /** `http://host:port`, the origin of every signed URL. */
  origin: string;
  requests: StorageRequest[];
  faults: StorageFaults;
  /** A URL of the file of a document, valid for `ttlSeconds` from `nowMs`. */
  sign(kind: DocumentKind, projectId: string, id: string, nowMs: number, ttlSeconds: number): string;
  /** A URL of a statement's lines as CSV (`detailed.csv_url`), valid for `ttlSeconds`. */
  signExport(projectId: string, statementId: number, nowMs: number, ttlSeconds: number): string;
  /** A PUT-only URL for an upload's bytes (the signed-URL flow), valid for `ttlSeconds`. */
  signUpload(kind: DocumentKind, projectId: string, stagingId: number, nowMs: number, ttlSeconds: number): string;
  /** The file PUT for a staging id: its path and size; undefined before any PUT. */
  stored(stagingId: number): { path: string; size: number } | undefined;
  /** Starts keeping an upload's file; commit it under its staging id once the upload is accepted. */
  receive(): IncomingFile;
  close(): Promise<void>;
}

export interface IncomingFile {
  write(chunk: Buffer): void;
  commit(stagingId: number): void;
  discard(): void;
}

export interface StorageOptions {
  host: string;
  /** Where uploaded files are kept across restarts (beside --data); a temporary directory otherwise. */
  dataFile?: string;
  quiet: boolean;
  log: (line: string) => void;
}

const FILE_PATH = /^\/files\/(contract|statement)\/([0-9a-f-]{36})\/([^/]+)$/;
const EXPORT_PATH = /^\/exports\/statement\/([0-9a-f-]{36})\/(\d{1,15})\.csv$/;
const UPLOAD_PATH = /^\/uploads\/(contract|statement)\/([0-9a-f-]{36})\/(\d{1,15})$/;

/** What the storage host's handlers share. */
export interface Host {
  state: EmulatorState;
  /** Where uploaded files are kept. */
  dir: string;
  faults: StorageFaults;
  secret: Buffer;
}

// The method is signed: a download URL cannot write, an upload URL cannot read.
const signature = (secret: Buffer, method: string, path: string, expires: string): Buffer =>
  createHmac('sha256', secret).update(`${method}\n${path}\n${expires}`).digest();

export const uploadPath = (dir: string, stagingId: number): string => join(dir, `${stagingId}.pdf`);

export async function startStorage(state: EmulatorState, options: StorageOptions): Promise<Storage> {
  const persistent = options.dataFile !== undefined;
  const dir = persistent ? `${options.dataFile}.files` : mkdtempSync(join(tmpdir(), 'pds-emulator-files-'));
  mkdirSync(dir, { recursive: true });
  const host: Host = { state, dir, faults: { expire: 0 }, secret: randomBytes(32) };
  const requests: StorageRequest[] = [];
  const server = createServer((req, res) => {
    const record = recordRequest(req, res, options);
    requests.push(record);
    serve(host, req, res);
    // Every answer's head is written before serve() returns.
    record.status = res.statusCode;
  });
  const origin = await listen(server, options.host);
  const signedUrl = (method: string, path: string, nowMs: number, ttlSeconds: number): string => {
    const expires = String(Math.floor(nowMs / 1000) + ttlSeconds);
    return `${origin}${path}?expires=${expires}&signature=${signature(host.secret, method, path, expires).toString('hex')}`;
  };

  return {
    origin,
    requests,
    faults: host.faults,
    sign(kind, projectId, id, nowMs, ttlSeconds) {
      return signedUrl('GET', `/files/${kind}/${projectId}/${encodeURIComponent(id)}`, nowMs, ttlSeconds);
    },
    signExport(projectId, statementId, nowMs, ttlSeconds) {
      return signedUrl('GET', `/exports/statement/${projectId}/${statementId}.csv`, nowMs, ttlSeconds);
    },
    signUpload(kind, projectId, stagingId, nowMs, ttlSeconds) {
      return signedUrl('PUT', `/uploads/${kind}/${projectId}/${stagingId}`, nowMs, ttlSeconds);
    },
    stored(stagingId) {
      const path = uploadPath(dir, stagingId);
      return existsSync(path) ? { path, size: statSync(path).size } : undefined;
    },
    receive: () => startFile(dir),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          if (!persistent) rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/** The request's entry in the log, and its line in the emulator's output once its answer closes. */
function recordRequest(req: IncomingMessage, res: ServerResponse, options: StorageOptions): StorageRequest {
  const record: StorageRequest = {
    method: req.method ?? 'GET',
    path: new URL(req.url ?? '/', 'http://storage').pathname,
    authorization: req.headers.authorization !== undefined,
    ...(req.headers.accept === undefined ? {} : { accept: req.headers.accept }),
  };
  // 'close' comes for a cut or abandoned answer too, which never finishes.
  res.on('close', () => {
    if (!options.quiet) {
      const outcome = res.writableFinished ? '' : ' (not completed)';
      options.log(
        `storage ${record.method} ${record.path} ${res.statusCode}${outcome} ${record.authorization ? 'WITH an Authorization header' : 'no Authorization header'}`,
      );
    }
  });
  return record;
}

/** Listens on a free port of the host; resolves to the origin of the signed URLs. */
async function listen(server: Server, hostName: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, hostName, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = hostName.includes(':') ? `[${hostName}]` : hostName;
  return `http://${host}:${port}`;
}

/** Whether the URL's signature and expiry hold for this method; answers the refusal when not. */
export function authorized(host: Host, res: ServerResponse, url: URL, method: string): boolean {
  const { faults } = host;
  const expires = url.searchParams.get('expires') ?? '';
  const given = Buffer.from(url.searchParams.get('signature') ?? '', 'hex');
  const wanted = signature(host.secret, method, url.pathname, expires);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    deny(res, 403, 'SignatureDoesNotMatch', 'the signature does not match');
    return false;
  }
  if (!/^\d+$/.test(expires) || Number(expires) * 1000 <= Date.now() || faults.expire > 0) {
    if (faults.expire > 0) faults.expire--;
    deny(res, 403, 'AccessDenied', 'the URL has expired');
    return false;
  }
  return true;
}

function serve(host: Host, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://storage');
  const upload = UPLOAD_PATH.exec(url.pathname);
  if (upload) {
    receivePut(host, req, res, url, Number(upload[3]));
    return;
  }
  const exported = EXPORT_PATH.exec(url.pathname);
  if (req.method === 'GET' && exported) {
    if (authorized(host, res, url, 'GET')) serveLines(host, res, exported[1] as string, Number(exported[2]));
    return;
  }
  const match = FILE_PATH.exec(url.pathname);
  if (req.method !== 'GET' || !match) {
    deny(res, 404, 'NoSuchKey', 'no such file');
    return;
  }
  if (!authorized(host, res, url, 'GET')) return;
  const [, kind = '', projectId = '', id = ''] = match;
  // FILE_PATH admits only the two kinds.
  serveFile(host, res, kind as DocumentKind, projectId, decodeURIComponent(id));
}
