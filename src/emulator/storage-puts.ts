// What the storage host takes in: a signed PUT's body, written to disk chunk by chunk under its staging id.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { deny } from './storage-files.js';
import { type IncomingFile, type Host, uploadPath, authorized } from './storage.js';

/** What one PUT may carry: the service's 50 MiB limit. */
const MAX_PUT_BYTES = 50 * 1024 * 1024;

/** Starts keeping a file as it arrives; committed under a staging id, or discarded. */
export function startFile(dir: string): IncomingFile {
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

/**
 * An upload's bytes (the signed-URL flow): PUT only, never with an Authorization header (a
 * client that sends one leaks its service credential to another host: 400, so tests see it),
 * at most 50 MiB, written to disk as they come. `x-upsert: true` lets a second PUT replace the
 * first (a retried PUT); without it a second PUT is a 409.
 */
export function receivePut(host: Host, req: IncomingMessage, res: ServerResponse, url: URL, stagingId: number): void {
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
  // The stall fault keeps nothing and answers nothing, as a storage host that hangs.
  const stalls = (faults.stallUploads ?? 0) > 0;
  if (stalls) faults.stallUploads = (faults.stallUploads ?? 0) - 1;
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
    if (stalls) return file.discard();
    file.commit(stagingId);
    const body = JSON.stringify({ Key: url.pathname.slice(1) });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  req.on('close', () => {
    if (!req.complete && !failed) file.discard();
  });
}
