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
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentKind, EmulatorState } from './store.js';
import { generatedFileName, generatedPdf } from './generated-files.js';
import { isProcessed, statementCsv } from './deployed/statements.js';

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

/** The document a download names, and the file name the service gives it. */
export interface DocumentFile {
  fileName: string;
  /** Its MIME type: a statement may be any of the stager's formats. */
  fileType: string;
  title: string;
  stagingId?: number;
}

/** A contract or statement of the project, with its file name; undefined when there is none. */
export function findDocumentFile(
  state: EmulatorState,
  kind: DocumentKind,
  projectId: string,
  id: string,
): DocumentFile | undefined {
  const data = state.data[projectId];
  if (!data) return undefined;
  const upload = (stagingId: number | undefined) =>
    stagingId === undefined
      ? undefined
      : state.uploads.find((u) => u.staging_id === stagingId && u.project_id === projectId);
  if (kind === 'contract') {
    const contract = data.contracts.find((c) => c.id === id);
    if (!contract) return undefined;
    const fileName = contract.file_name ?? upload(contract.staging_id)?.file_name ?? generatedFileName(contract.name);
    return {
      fileName,
      fileType: contract.file_type ?? 'application/pdf',
      title: contract.name,
      ...(contract.staging_id === undefined ? {} : { stagingId: contract.staging_id }),
    };
  }
  if (!/^\d{1,15}$/.test(id)) return undefined;
  const statement = data.statements.find((s) => s.id === Number(id));
  if (!statement) return undefined;
  return {
    fileName: statement.file_name,
    fileType: statement.file_type,
    title: statement.statement_name ?? statement.file_name,
    ...(statement.staging_id === undefined ? {} : { stagingId: statement.staging_id }),
  };
}

const FILE_PATH = /^\/files\/(contract|statement)\/([0-9a-f-]{36})\/([^/]+)$/;
const EXPORT_PATH = /^\/exports\/statement\/([0-9a-f-]{36})\/(\d{1,15})\.csv$/;
const UPLOAD_PATH = /^\/uploads\/(contract|statement)\/([0-9a-f-]{36})\/(\d{1,15})$/;
/** What one PUT may carry: the service's 50 MiB limit. */
const MAX_PUT_BYTES = 50 * 1024 * 1024;

/** What the storage host's handlers share. */
interface Host {
  state: EmulatorState;
  /** Where uploaded files are kept. */
  dir: string;
  faults: StorageFaults;
  secret: Buffer;
}

// The method is signed: a download URL cannot write, an upload URL cannot read.
const signature = (secret: Buffer, method: string, path: string, expires: string): Buffer =>
  createHmac('sha256', secret).update(`${method}\n${path}\n${expires}`).digest();

const uploadPath = (dir: string, stagingId: number): string => join(dir, `${stagingId}.pdf`);

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
function authorized(host: Host, res: ServerResponse, url: URL, method: string): boolean {
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

/** Starts keeping a file as it arrives; committed under a staging id, or discarded. */
function startFile(dir: string): IncomingFile {
  const partial = join(dir, `incoming-${randomBytes(8).toString('hex')}.part`);
  const fd = openSync(partial, 'w');
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    // Synchronous writes: a local disk keeps up with loopback, and nothing is left buffered.
    write: (chunk) => {
      if (open) writeSync(fd, chunk);
    },
    commit: (stagingId) => {
      close();
      renameSync(partial, uploadPath(dir, stagingId));
    },
    discard: () => {
      close();
      rmSync(partial, { force: true });
    },
  };
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
  const [, kind, projectId, id] = match as unknown as [string, DocumentKind, string, string];
  serveFile(host, res, kind, projectId, decodeURIComponent(id));
}

/** A document's file: the one uploaded when it is still on disk, else a generated PDF. */
function serveFile(host: Host, res: ServerResponse, kind: DocumentKind, projectId: string, id: string): void {
  const file = findDocumentFile(host.state, kind, projectId, id);
  if (!file) {
    deny(res, 404, 'NoSuchKey', 'no such file');
    return;
  }
  const kept = file.stagingId === undefined ? undefined : uploadPath(host.dir, file.stagingId);
  if (kept !== undefined && existsSync(kept)) {
    const size = statSync(kept).size;
    res.writeHead(200, { 'content-type': file.fileType, 'content-length': size });
    send(host.faults, res, createReadStream(kept), size);
  } else {
    const pdf = generatedPdf(file.title);
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length });
    send(host.faults, res, [pdf], pdf.length);
  }
}

/** A statement's lines as CSV (the deployed service's `detailed` export); 404 before it is processed. */
function serveLines(host: Host, res: ServerResponse, projectId: string, statementId: number): void {
  const data = host.state.data[projectId];
  const statement = data?.statements.find((s) => s.id === statementId);
  if (!data || !statement || !isProcessed(statement)) {
    deny(res, 404, 'NoSuchKey', 'no such file');
    return;
  }
  const csv = Buffer.from(statementCsv(data, statement), 'utf8');
  res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-length': csv.length });
  send(host.faults, res, [csv], csv.length);
}

/**
 * An upload's bytes (the signed-URL flow): PUT only, never with an Authorization header (a
 * client that sends one leaks its service credential to another host: 400, so tests see it),
 * at most 50 MiB, written to disk as they come. `x-upsert: true` lets a second PUT replace the
 * first (a retried PUT); without it a second PUT is a 409.
 */
function receivePut(host: Host, req: IncomingMessage, res: ServerResponse, url: URL, stagingId: number): void {
  const { faults } = host;
  const refuse = (status: number, code: string, message: string): void => {
    req.resume();
    deny(res, status, code, message);
  };
  if (req.method !== 'PUT') {
    refuse(405, 'MethodNotAllowed', 'upload URLs take PUT only');
    return;
  }
  if (req.headers.authorization !== undefined) {
    refuse(400, 'InvalidRequest', 'an upload URL is signed: send no Authorization header to the storage host');
    return;
  }
  if (!authorized(host, res, url, 'PUT')) return void req.resume();
  if (Number(req.headers['content-length'] ?? 0) > MAX_PUT_BYTES) {
    refuse(400, 'EntityTooLarge', 'the file exceeds the 50 MiB limit');
    return;
  }
  const upsert = String(req.headers['x-upsert'] ?? '').toLowerCase() === 'true';
  if (!upsert && existsSync(uploadPath(host.dir, stagingId))) {
    refuse(409, 'Duplicate', 'the file exists already (send x-upsert: true to replace it)');
    return;
  }
  const file = startFile(host.dir);
  // The reset fault cuts the connection once some of the body has come, as a flaky link does.
  const resetAt = (faults.resetUploads ?? 0) > 0 ? 64 * 1024 : -1;
  if (resetAt >= 0) faults.resetUploads = (faults.resetUploads ?? 0) - 1;
  let size = 0;
  let failed = false;
  req.on('data', (chunk: Buffer) => {
    if (failed) return;
    size += chunk.length;
    if (resetAt >= 0 && size >= resetAt) {
      failed = true;
      file.discard();
      req.socket.destroy();
    } else if (size > MAX_PUT_BYTES) {
      failed = true;
      file.discard();
      refuse(400, 'EntityTooLarge', 'the file exceeds the 50 MiB limit');
    } else {
      file.write(chunk);
    }
  });
  req.on('end', () => {
    if (failed) return;
    file.commit(stagingId);
    const body = JSON.stringify({ Key: url.pathname.slice(1) });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  req.on('close', () => {
    if (!req.complete && !failed) file.discard();
  });
}

/** Sends the body, applying a cut or a stall when one is asked for. */
function send(faults: StorageFaults, res: ServerResponse, body: AsyncIterable<Buffer> | Buffer[], size: number): void {
  const limit = faults.cutAfterBytes ?? faults.stallAfterBytes;
  const cut = faults.cutAfterBytes !== undefined;
  void (async () => {
    let sent = 0;
    for await (const chunk of body) {
      if (res.destroyed) return;
      const room = limit === undefined ? chunk.length : Math.max(0, limit - sent);
      const part = chunk.subarray(0, room);
      sent += part.length;
      const cutting = limit !== undefined && sent >= limit && sent < size;
      const flowing = res.write(part);
      if (cutting) {
        // The bytes written must leave before the cut: a destroyed response drops what it buffered.
        await new Promise((resume) => res.write('', resume));
        if (cut) res.destroy();
        // A stall keeps the connection open until the client gives up.
        return;
      }
      if (!flowing)
        await new Promise((resume) => {
          res.once('drain', resume);
          res.once('close', resume);
        });
    }
    res.end();
  })().catch(() => res.destroy());
}

/** An answer in the shape a storage host gives: XML, with a code. */
function deny(res: ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
