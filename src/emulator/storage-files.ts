// What the storage host serves: a document's file (uploaded, or generated), a statement's lines,
// sent with the faults a test asked for, and its refusals in a storage host's XML.
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { DocumentKind, EmulatorState } from './store.js';
import { generatedFileName, generatedPdf } from './generated-files.js';
import { isProcessed, statementCsv } from './deployed/statements.js';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { type ExportFault, type StorageFaults, type Host, uploadPath } from './storage.js';

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

/** A document's file: the one uploaded when it is still on disk, else a generated PDF. */
export function serveFile(host: Host, res: ServerResponse, kind: DocumentKind, projectId: string, id: string): void {
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
export function serveLines(host: Host, res: ServerResponse, projectId: string, statementId: number): void {
  const data = host.state.data[projectId];
  const statement = data?.statements.find((s) => s.id === statementId);
  if (!data || !statement || !isProcessed(statement)) {
    deny(res, 404, 'NoSuchKey', 'no such file');
    return;
  }
  const fault = host.faults.exports?.get(statementId);
  const csv = Buffer.from(fault?.text ?? statementCsv(data, statement), 'utf8');
  if (fault !== undefined && (fault.encoding ?? fault.trickleMs ?? fault.endless) !== undefined) {
    serveFaultyExport(res, csv, fault);
    return;
  }
  if (host.faults.exportBytes !== undefined) {
    serveFaultyExport(res, csv, { endless: true }, host.faults.exportBytes);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-length': csv.length });
  send(host.faults, res, [csv], csv.length);
}

/** An export sent encoded, as a trickle, or without end, as a test asked. */
function serveFaultyExport(
  res: ServerResponse,
  csv: Buffer,
  fault: ExportFault,
  upTo = Number.POSITIVE_INFINITY,
): void {
  const type = { 'content-type': 'text/csv; charset=utf-8' };
  if (fault.encoding !== undefined) {
    const encoded =
      fault.encoding === 'gzip'
        ? gzipSync(csv)
        : fault.encoding === 'deflate'
          ? deflateSync(csv)
          : brotliCompressSync(csv);
    if (fault.corruptAt !== undefined) encoded[fault.corruptAt] = (encoded[fault.corruptAt] ?? 0) ^ 0xff;
    if (fault.cutAt !== undefined && fault.announced === true) {
      res.writeHead(200, { ...type, 'content-encoding': fault.encoding, 'content-length': encoded.length });
      res.write(encoded.subarray(0, fault.cutAt), () => res.destroy());
      return;
    }
    if (fault.cutAt !== undefined) {
      res.writeHead(200, { ...type, 'content-encoding': fault.encoding });
      res.end(encoded.subarray(0, fault.cutAt));
      return;
    }
    res.writeHead(200, { ...type, 'content-encoding': fault.encoding, 'content-length': encoded.length });
    res.end(encoded);
    return;
  }
  res.writeHead(200, type);
  if (fault.trickleMs !== undefined) {
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed || at >= csv.length) {
        clearInterval(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(csv.subarray(at, ++at));
    }, fault.trickleMs);
    res.once('close', () => clearInterval(timer));
    return;
  }
  const breakAt = csv.indexOf(10) + 1;
  const rows = csv.subarray(breakAt);
  if (rows.length === 0) {
    res.end(csv);
    return;
  }
  const block = Buffer.concat(
    Array.from({ length: Math.max(1, Math.ceil(65536 / Math.max(rows.length, 1))) }, () => rows),
  );
  res.write(csv.subarray(0, breakAt));
  let sent = breakAt;
  const more = (): void => {
    let flowing = true;
    while (!res.destroyed && flowing && sent < upTo) {
      flowing = res.write(block);
      sent += block.length;
    }
    if (res.destroyed) return;
    if (sent >= upTo) res.end();
    else res.once('drain', more);
  };
  more();
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
export function deny(res: ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
