// The two kinds of document, contracts and statements: they differ only in path, schemas and whether
// extractions exist, so one table describes them; with the types both upload flows share.
import {
  ContractProcesses,
  ContractUpload,
  StatementProcesses,
  StatementUpload,
  type UploadComplete,
  type UploadProgressEvent,
} from '../../schemas.js';
import { RESOURCES } from '../../resources.js';

export const DOCUMENT_KINDS = {
  contract: { path: RESOURCES.contracts.path, noun: 'contracts', upload: ContractUpload, processes: ContractProcesses },
  statement: {
    path: RESOURCES.statements.path,
    noun: 'statements',
    upload: StatementUpload,
    processes: StatementProcesses,
  },
} as const;

export type DocumentKind = keyof typeof DOCUMENT_KINDS;
/** The answer of a signed-URL upload, with `staging_stage` its status so both flows print alike. */
export type SignedUpload = UploadComplete & { staging_stage: string; pause_reason?: string };
export type UploadRecord = ContractUpload | StatementUpload | SignedUpload;

/** The processes object of either kind, tagged so callers can tell them apart. */
export type DocumentProcesses =
  | { kind: 'contract'; data: ContractProcesses }
  | { kind: 'statement'; data: StatementProcesses };

export interface UploadOptions {
  /** Contract uploads only: full extraction names (`extract-…`). */
  extractions?: string[];
  /** The upload's `context` (docs/service.md); only the signed-URL flow can carry it. */
  context?: Record<string, unknown>;
  /** The folder to file it under; only the signed-URL flow can carry it. */
  folderName?: string;
  /** A request that may act (a mint, or a body that started) is on its way: the service may have something. */
  onStart?(): void;
  /** Body bytes handed to the transport, of the whole body. */
  onBytes?(sent: number, total: number): void;
  /** The service's `progress` events. */
  onProgress?(event: UploadProgressEvent): void;
  /**
   * Fail when nothing moves for this long (0: never): while the body goes out, a sent chunk; once
   * the service answers, an event (its keep-alive comments do not count: they prove a connection,
   * not progress).
   */
  idleTimeoutMs?: number;
  /** --wait-timeout: the longest the answer may take to confirm the upload once it began (0: no limit). */
  answerTimeoutMs?: number;
  /** Abandons the upload (an MCP client's cancel): the body stops, so the service makes no document. */
  signal?: AbortSignal;
  /** A 429 on the upload's request, waited out for `waitMs`. */
  onRateLimited?(waitMs: number): void;
  /** --allow-http and its kin: a signed upload URL over plain http to a host that is not loopback is used. */
  allowHttp?: boolean;
}

/** The hint every uncertain upload failure carries: the document may exist already. */
export function receivedHint(kind: DocumentKind): string {
  return `check with \`pds ${DOCUMENT_KINDS[kind].noun} ls\` before retrying: the upload may have been received`;
}
