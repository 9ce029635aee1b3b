// The deployed service's upload flow (docs/service.md): mint a staging record and a signed PUT URL
// on the storage host, the client PUTs the bytes there, then completes; and the retry of a paused
// staging. Served by the `deployed` and `current` flavors: a seed-flavored emulator answers 404/405, as a
// service without them does, and clients fall back to the multipart upload of docs/service.md, "Uploads".
import { open } from 'node:fs/promises';
import {
  HttpError,
  PAUSE_REASON,
  deployedForms,
  fieldErrors,
  notSaved,
  queryProject,
  type Handler,
  type RouteContext,
  type Route,
} from '../http.js';
import { track } from '../upload-records.js';
import { countersOf, newUpload, type DocumentKind, type UploadContext, type UploadRecord } from '../store.js';
import { MAX_FILE_BYTES, parseExtractions } from '../uploads.js';
import { parseJsonObject, readBody } from '../request-body.js';
import { stagingProblem } from '../staging-check.js';
import {
  CURRENT_EXTRACTION_NAMES,
  CURRENCY_RE,
  PERIOD_RE,
  SCENARIO_FAMILY_NAMES,
  STATEMENT_EXTENSIONS,
  STATEMENT_TYPES,
  TARGET_FAMILY_NAMES,
  statementExtension,
} from '../vocabulary.js';

const MAX_JSON_BYTES = 64 * 1024;
const MAX_TEXT = 255;

type Errors = Record<string, string[]>;
const add = (errors: Errors, field: string, problem: string): void => {
  const problems = errors[field] ?? [];
  errors[field] = problems;
  problems.push(problem);
};

/** A small JSON object body; 400 when it is not one. */
export async function jsonBody(ctx: RouteContext): Promise<Record<string, unknown>> {
  return parseJsonObject(await readBody(ctx.req, MAX_JSON_BYTES, 'the request body exceeds 64 KiB'));
}

const isText = (value: unknown, max = MAX_TEXT): value is string =>
  typeof value === 'string' && value.trim() !== '' && value.length <= max;

function checkTags(errors: Errors, field: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((tag) => isText(tag, 64))) {
    add(errors, field, 'tags must be an array of non-empty strings of at most 64 characters');
    return undefined;
  }
  return [...new Set(value.map((tag: string) => tag.trim()))];
}

/** `context` of a mint: statements take the whole of it, contracts only tags. */
function checkContext(errors: Errors, kind: DocumentKind, raw: unknown): UploadContext | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    add(errors, 'context', 'context must be an object');
    return undefined;
  }
  const c = raw as Record<string, unknown>;
  const allowed =
    kind === 'contract'
      ? ['tags']
      : [
          'accountingPeriod',
          'targetPeriod',
          'currencyRoyalty',
          'currencyTransaction',
          'payee',
          'payor',
          'classification',
          'tags',
        ];
  for (const key of Object.keys(c))
    if (!allowed.includes(key)) add(errors, `context.${key}`, `unknown context field for ${kind}s`);
  const out: UploadContext = {};
  for (const key of ['accountingPeriod', 'targetPeriod'] as const) {
    const period = c[key];
    if (period === undefined) continue;
    const value = typeof period === 'object' && period !== null ? (period as { value?: unknown }).value : undefined;
    if (typeof value !== 'string' || !PERIOD_RE.test(value))
      add(errors, `context.${key}`, 'must be {value} with a period such as 2026Y, 2026H1, 2026Q3 or 2026M11');
    else out[key] = { value };
  }
  for (const key of ['currencyRoyalty', 'currencyTransaction'] as const) {
    const value = c[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !CURRENCY_RE.test(value))
      add(errors, `context.${key}`, 'must be a three-letter currency code');
    else out[key] = value;
  }
  for (const key of ['payee', 'payor'] as const) {
    const value = c[key];
    if (value === undefined) continue;
    if (!isText(value)) add(errors, `context.${key}`, `must be a non-empty string of at most ${MAX_TEXT} characters`);
    else out[key] = value;
  }
  if (c.classification !== undefined) {
    const { scenarioFamily, targetFamily } = (c.classification ?? {}) as Record<string, unknown>;
    if (!(SCENARIO_FAMILY_NAMES as readonly unknown[]).includes(scenarioFamily))
      add(errors, 'context.classification.scenarioFamily', `unknown scenario family '${String(scenarioFamily)}'`);
    if (!(TARGET_FAMILY_NAMES as readonly unknown[]).includes(targetFamily))
      add(errors, 'context.classification.targetFamily', `unknown target family '${String(targetFamily)}'`);
    out.classification = { scenarioFamily: String(scenarioFamily), targetFamily: String(targetFamily) };
  }
  const tags = checkTags(errors, 'context.tags', c.tags);
  if (tags) out.tags = tags;
  return out;
}

/** The file a mint announces: its name's extension and type must be what the kind takes. */
function checkFile(
  errors: Errors,
  kind: DocumentKind,
  body: Record<string, unknown>,
): { fileName: string; fileType: string; fileSize: number } {
  const { fileName, fileType, fileSize } = body;
  if (!isText(fileName)) add(errors, 'fileName', 'fileName is required');
  if (typeof fileType !== 'string' || fileType === '') add(errors, 'fileType', 'fileType is required');
  if (typeof fileSize !== 'number' || !Number.isSafeInteger(fileSize) || fileSize < 1)
    add(errors, 'fileSize', 'fileSize must be a positive integer');
  else if (fileSize > MAX_FILE_BYTES) add(errors, 'fileSize', `file exceeds the 50 MB limit (${MAX_FILE_BYTES} bytes)`);
  const name = isText(fileName) ? (fileName.split(/[\\/]/).pop() as string) : '';
  const type = typeof fileType === 'string' ? fileType.toLowerCase() : '';
  if (name !== '' && type !== '') {
    const ext = kind === 'contract' ? (/\.pdf$/i.test(name) ? 'pdf' : undefined) : statementExtension(name);
    if (ext === undefined) {
      const accepted = kind === 'contract' ? 'pdf' : STATEMENT_EXTENSIONS.join(', ');
      add(errors, 'fileName', `unsupported file type '${name}': accepted extensions are ${accepted}`);
    } else {
      const wanted = kind === 'contract' ? 'application/pdf' : (STATEMENT_TYPES[ext] ?? 'application/octet-stream');
      if (type !== wanted && type !== 'application/octet-stream')
        add(errors, 'fileType', `fileType '${fileType as string}' does not match '${name}' (expected ${wanted})`);
    }
  }
  return { fileName: name, fileType: type, fileSize: fileSize as number };
}

const mint =
  (kind: DocumentKind): Handler =>
  async (ctx) => {
    const { project } = queryProject(ctx);
    const body = await jsonBody(ctx);
    const errors: Errors = {};
    const file = checkFile(errors, kind, body);
    const context = checkContext(errors, kind, body.context);
    let extractions: UploadRecord['extractions'] = [];
    if (body.extractions !== undefined) {
      try {
        extractions = parseExtractions(kind, body.extractions, CURRENT_EXTRACTION_NAMES);
      } catch (error) {
        if (!(error instanceof HttpError) || typeof error.detail === 'string') throw error;
        Object.assign(errors, error.detail);
      }
    }
    if (body.folderName !== undefined && !isText(body.folderName))
      add(errors, 'folderName', `folderName must be a non-empty string of at most ${MAX_TEXT} characters`);
    fieldErrors(errors);
    const now = ctx.now();
    const fileType =
      kind === 'contract'
        ? 'application/pdf'
        : (STATEMENT_TYPES[statementExtension(file.fileName) ?? ''] ?? file.fileType);
    const record = newUpload(
      ctx.state,
      now,
      { kind, project_id: project.id, file_name: file.fileName, file_type: fileType, file_size: file.fileSize },
      {
        extractions,
        minted: true,
        ...(context && { context }),
        ...(typeof body.folderName === 'string' && { folder_name: body.folderName }),
      },
    );
    try {
      await ctx.commit([{ upload: record }, countersOf(ctx.state)]);
    } catch {
      throw notSaved('the upload');
    }
    const storage = ctx.storage;
    if (!storage) throw new HttpError(500, 'no storage host');
    return {
      // The deployed service answers a mint 201 Created (examples/deployed/README.md).
      ...(deployedForms(ctx.options) && { status: 201 }),
      body: {
        data: {
          staging_id: record.staging_id,
          upload_url: storage.signUpload(kind, project.id, record.staging_id, now, ctx.options.urlTtlSeconds),
          file_path: filePath(record),
        },
      },
    };
  };

/** Where the storage host keeps an upload's file, as the mint and the completion name it. */
const filePath = (upload: UploadRecord): string =>
  `${upload.project_id}/${upload.kind}s/${upload.staging_id}/${upload.file_name}`;

/** The staging id in a body or path: a positive integer naming an upload of this kind and project. */
function findStaging(
  ctx: RouteContext,
  kind: DocumentKind,
  projectId: string,
  raw: unknown,
  field: string,
): UploadRecord {
  const id = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
    throw new HttpError(400, { [field]: [`${field} must be a positive integer`] });
  const upload = ctx.state.uploads.find((u) => u.staging_id === id && u.kind === kind && u.project_id === projectId);
  if (!upload) throw new HttpError(404, `${kind} staging ${id} not found`);
  return upload;
}

async function readEnds(path: string, size: number): Promise<{ head: Buffer; tail: Buffer }> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(size, 8192));
    const tail = Buffer.alloc(Math.min(size, 1024));
    await handle.read(head, 0, head.length, 0);
    await handle.read(tail, 0, tail.length, size - tail.length);
    return { head, tail };
  } finally {
    await handle.close();
  }
}

const complete =
  (kind: DocumentKind): Handler =>
  async (ctx) => {
    const { project } = queryProject(ctx);
    const body = await jsonBody(ctx);
    const upload = findStaging(ctx, kind, project.id, body.stagingId, 'stagingId');
    // Completed already (a client that did not see the first answer): the same answer, no new record.
    if (!upload.minted) return { body: { data: completeBody(ctx, upload, false) } };
    const stored = ctx.storage?.stored(upload.staging_id);
    if (!stored)
      throw new HttpError(400, {
        stagingId: [`no file was uploaded for staging ${upload.staging_id}: PUT it to the upload_url first`],
      });
    if (stored.size !== upload.file_size) {
      throw new HttpError(400, {
        stagingId: [`the stored file has ${stored.size} bytes, the mint announced ${upload.file_size}`],
      });
    }
    const { head, tail } = await readEnds(stored.path, stored.size);
    const problem = stagingProblem(upload.file_type, head, tail);
    const now = ctx.now();
    const updated: UploadRecord = {
      ...upload,
      minted: undefined,
      created_ms: now,
      created_at: new Date(now).toISOString(),
    };
    delete updated.minted;
    if (problem) updated.staging_error = problem;
    if (ctx.options.pauseUploads) updated.pause_reason = PAUSE_REASON;
    try {
      await ctx.commit([{ upload: updated }]);
    } catch {
      throw notSaved('the upload');
    }
    track(ctx.state, updated);
    return { body: { data: completeBody(ctx, updated, true) } };
  };

function completeBody(ctx: RouteContext, upload: UploadRecord, enqueued: boolean): Record<string, unknown> {
  const paused = upload.pause_reason !== undefined;
  if (deployedForms(ctx.options)) return deployedCompleteBody(upload, enqueued);
  return {
    staging_id: upload.staging_id,
    status: paused ? 'paused' : 'queued',
    context_applied: upload.context !== undefined && Object.keys(upload.context).length > 0,
    enqueued: enqueued && !paused,
    paused,
  };
}

/**
 * The deployed service's completion (docs/service.md): `enqueued` and `paused` are counts, and an
 * upload with no context and no folder is only `uploaded` (it is processed all the same).
 */
function deployedCompleteBody(upload: UploadRecord, enqueued: boolean): Record<string, unknown> {
  const contextApplied = upload.context !== undefined && Object.keys(upload.context).length > 0;
  const base = { staging_id: upload.staging_id, file_path: filePath(upload), context_applied: contextApplied };
  if (upload.pause_reason !== undefined) return { ...base, status: 'paused', paused: 1 };
  if (!contextApplied && upload.folder_name === undefined) return { ...base, status: 'uploaded' };
  return { ...base, status: 'queued', enqueued: enqueued ? 1 : 0 };
}

/** The quota --pause-uploads pretends the project has reached. */
const QUOTA = 100;

/** `enqueued` of a retry: a count in the deployed forms, a flag in the `current` flavor's. */
const counted = (ctx: RouteContext, enqueued: boolean): number | boolean =>
  deployedForms(ctx.options) ? (enqueued ? 1 : 0) : enqueued;

const retry =
  (kind: DocumentKind): Handler =>
  async (ctx) => {
    const { project, data } = queryProject(ctx);
    await jsonBody(ctx);
    const upload = findStaging(ctx, kind, project.id, ctx.params.id, 'stagingId');
    if (upload.pause_reason === undefined)
      throw new HttpError(409, `${kind} staging ${upload.staging_id} is not paused; nothing to retry`);
    const count = data[`${kind}s`].length;
    if (ctx.options.pauseUploads) {
      return {
        body: {
          data: {
            staging_id: upload.staging_id,
            status: 'paused',
            enqueued: counted(ctx, false),
            current_count: count,
            limit: QUOTA,
          },
        },
      };
    }
    const now = ctx.now();
    const updated: UploadRecord = { ...upload, created_ms: now, created_at: new Date(now).toISOString() };
    delete updated.pause_reason;
    try {
      await ctx.commit([{ upload: updated }]);
    } catch {
      throw notSaved('the retry');
    }
    track(ctx.state, updated);
    return {
      body: {
        data: {
          staging_id: upload.staging_id,
          status: 'queued',
          enqueued: counted(ctx, true),
          current_count: count,
          limit: QUOTA,
        },
      },
    };
  };

export const signedUploadRoutes: Route[] = (['contract', 'statement'] as const).flatMap((kind) => [
  { method: 'POST', pattern: `/v1/${kind}s/uploads`, handler: mint(kind) },
  { method: 'POST', pattern: `/v1/${kind}s/uploads/complete`, handler: complete(kind) },
  { method: 'POST', pattern: `/v1/${kind}s/staging/:id/retry`, handler: retry(kind) },
]);
