// The tools of `pds mcp`, one table: each over the same typed API, zod schemas and checks as the
// CLI verb it mirrors (flags.ts, options.ts, search.ts, get.ts, processes.ts, upload.ts), so a
// tool accepts what the verb accepts and fails with the verb's message.
import * as z from 'zod/mini';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../../lib/context.js';
import { RESOURCE_NAMES, RESOURCES, resourceOf, type ResourceFlag, type ResourceName } from '../../lib/resources.js';
import { RESOURCE_SCHEMAS } from '../../lib/api/catalog-schemas.js';
import { DOCUMENT_KINDS, type DocumentKind } from '../../lib/api/documents.js';
import { STATEMENT_EXTENSIONS } from '../../lib/formats.js';
import { NotFoundError, UsageError } from '../../lib/errors.js';
import {
  CONTRACT_INCLUDES,
  ContractProcesses,
  EXTRACTIONS,
  ExecResult,
  KnowledgeNode,
  Project,
  SearchResult,
  StagingRetry,
  StatementProcesses,
  StatementUpdate,
  Tag,
  uuid,
} from '../../lib/schemas.js';
import type { LocalUpload } from '../../lib/upload.js';
import type { AnyVerb } from '../../lib/verb.js';
import { formatBytes } from '../../lib/text.js';
import { flagSchema } from '../../lib/verb-options.js';
import { ROLES, resourceQuery } from '../catalog/flags.js';
import { RESOURCE_FLAGS } from '../catalog/resources.js';
import { checkResourceId } from '../catalog/get.js';
import { SEARCH_TYPES, searchQuery, searchTypes } from '../search/search.js';
import { SEARCH_FLAGS } from '../search/definitions.js';
import { checkDocumentId, progressOf, shortExtraction } from '../documents/processes.js';
import { extractionNames, uploadContext, type ContextOptions } from '../upload/plan.js';
import { CONTEXT_FLAGS, STATEMENT_ONLY, UPLOAD_FLAGS } from '../upload/definitions.js';
import { readPath, ROOT } from '../sandbox/session.js';
import type { Toolset } from './toolsets.js';
import { releaseLocalFile } from './roots.js';
import { statementLinesTool } from './lines-tool.js';
import { earnedTools } from './earned-tools.js';
import { MAX_TEXT_CHARS, dataResult, decodeCursor, encodeCursor } from './results.js';
import { describe, flagInput, listOutput, nextCursor, numberOrText, verbTool } from './verb-tools.js';
import { search as knowledgeSearch } from '../knowledge/index.js';
import { ls as tagsLs } from '../tags/index.js';
import { documentVerbs, updateStatement } from '../documents/index.js';

/** The resource flags' checks, for the tools that take them. */
const ResourceFlags = Object.fromEntries(
  Object.entries(RESOURCE_FLAGS).map(([key, spec]) => [key, flagSchema(key, spec)]),
) as Record<keyof typeof RESOURCE_FLAGS, ReturnType<typeof flagSchema>>;

/** What a tool call has to work with. */
export interface Call {
  /** The Context of the server: its stdout is stderr, its signal ends with the server. */
  ctx: Context;
  /** The project of this call: the pinned one, the call's projectId, or the profile's default. */
  project(explicit: string | undefined): string;
  /** Records per call at most (`--max-results`). */
  maxResults: number;
  /** Cancelled when the client cancels the call. */
  signal: AbortSignal;
  /** Tells the client how far the call is (when it asked, with a progress token; else nothing). */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * A local file an upload may send: inside the roots, not hidden, of a format its kind takes, within
   * the limit; open, checked as it is open, and released (releaseLocalFile) once the upload is over.
   */
  localFile(path: string, kind: DocumentKind): Promise<LocalUpload>;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The group `--toolsets` offers it by. */
  toolset: Toolset;
  /** Offered only with --allow-writes. */
  write: boolean;
  annotations: ToolAnnotations;
  /** Inputs besides projectId. */
  input: Record<string, z.ZodMiniType>;
  /** Acts on one project: takes projectId, unless the server pins the project. */
  project: boolean;
  /** What its structuredContent holds: an object schema (MCP asks for one), the records as --json has them. */
  output: z.ZodMiniType;
  /** Lists that page take `cursor`; the decoded arguments are checked by the same schema. */
  run(args: Record<string, unknown>, call: Call, cursor: CursorState): Promise<CallToolResult>;
}

/** Where a paged call starts: the offset of offset-paged lists (search, projects, sandbox reads). */
export interface CursorState {
  offset: number;
  /** The next call's cursor: these arguments, from that offset. */
  next(args: Record<string, unknown>, offset?: number): string;
}

/**
 * What an upload returns, by either flow: the seed's multipart record (ContractUpload,
 * StatementUpload) or the signed-URL flow's completion (UploadComplete with staging_stage). Both
 * carry staging_id and staging_stage; the rest depends on the flow, so it is optional.
 */
const uploadOutput = (kind: DocumentKind) =>
  z.looseObject({
    staging_id: z.int(),
    staging_stage: z.string(),
    staging_done: z.optional(z.boolean()),
    ...(kind === 'contract'
      ? { extractions_done: z.optional(z.boolean()) }
      : { processing_done: z.optional(z.boolean()) }),
    created_at: z.optional(z.string()),
    status: z.optional(z.string()),
    pause_reason: z.optional(z.string()),
  });

const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
// Commands run in the sandbox's own copy of the project's data: they may write files there, and
// change nothing in the service.
const SANDBOX: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
// An upload adds a document (and a second call adds a second one); it changes nothing that exists.
const UPLOAD: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

const wholeNumber = (name: string, min: number, max?: number) =>
  flagSchema(
    name,
    { type: 'number', value: 'n', integer: true, min, ...(max === undefined ? {} : { max }), help: '' },
    name,
  );

export const projectIdInput = describe(
  z.optional(uuid),
  "project UUID; default: the project pds is set to (PDS_PROJECT or the profile's)",
);
const cursorInput = describe(
  z.optional(z.string()),
  'the cursor a previous call of this tool ended with, passed alone: continues the same list',
);

/** The CLI's resource flags this resource takes (`pds <resource> ls|get --include/--roles/--merged/--products`). */
function resourceInputs(resource: ResourceName, verb: 'list' | 'get'): Record<string, z.ZodMiniType> {
  const input: Record<string, z.ZodMiniType> = {};
  const takes = (flag: ResourceFlag) =>
    (RESOURCES[resource].flags[verb === 'list' ? 'ls' : 'get'] as readonly ResourceFlag[]).includes(flag);
  if (takes('include')) {
    input.include = describe(ResourceFlags.include, `sub-resources to embed: ${CONTRACT_INCLUDES.join(', ')}`);
  }
  if (takes('roles')) {
    input.roles = describe(
      ResourceFlags.roles,
      `only entities with these contract roles, comma-separated: ${ROLES.join(', ')}`,
    );
  }
  if (takes('merged')) {
    input.merged = describe(ResourceFlags.merged, 'include the duplicates merged into each record');
  }
  if (takes('products')) {
    input.products = describe(ResourceFlags.products, 'include products (releases with UPCs)');
  }
  return input;
}

function catalogTools(): ToolDefinition[] {
  return RESOURCE_NAMES.flatMap((resource): ToolDefinition[] => {
    const { singular: one, description, toolWording: what = description } = resourceOf(resource);
    const list: ToolDefinition = {
      name: `list_${resource}`,
      title: `List ${resource}`,
      description: `One page of the ${what}. While there are more, it ends with a cursor: pass it back alone for the next page.`,
      toolset: documentResource(resource) ? 'documents' : 'catalog',
      write: false,
      annotations: READ,
      project: true,
      output: listOutput(RESOURCE_SCHEMAS[resource]),
      input: {
        page: describe(z.optional(wholeNumber('page', 1)), 'page number, from 1 (default 1)'),
        perPage: describe(
          z.optional(wholeNumber('perPage', 1, 100)),
          'records per page, 1 to 100 (default: the most a call returns)',
        ),
        ...resourceInputs(resource, 'list'),
        cursor: cursorInput,
      },
      async run(args, call, cursor) {
        const perPage = (args.perPage as number | undefined) ?? call.maxResults;
        if (perPage > call.maxResults) {
          throw new UsageError(`perPage: at most ${call.maxResults} records per call (the server's --max-results)`);
        }
        const page = (args.page as number | undefined) ?? 1;
        const extra = resourceQuery(args);
        const projectId = call.project(args.projectId as string | undefined);
        const result = await call.ctx.api.catalog.listPage(resource, {
          projectId,
          page,
          perPage,
          extra,
          signal: call.signal,
        });
        const first = (page - 1) * perPage + 1;
        const shown =
          result.items.length === 0 ? `no ${resource}` : `${resource} ${first}-${first + result.items.length - 1}`;
        const more = result.total !== undefined ? page * perPage < result.total : result.items.length >= perPage;
        const of = result.total !== undefined ? ` of ${result.total}` : '';
        const next = more ? cursor.next({ ...args, projectId, page: page + 1, perPage }) : null;
        return dataResult(result.items, {
          before: `${shown}${of} (page ${page}, ${perPage} per page)`,
          after: [next ? nextLine(`list_${resource}`, next) : 'last page'],
          structured: {
            items: result.items,
            next_cursor: next,
            ...(result.total !== undefined ? { total: result.total } : {}),
          },
        });
      },
    };
    const get: ToolDefinition = {
      name: `get_${one}`,
      title: `Get ${withArticle(one)}`,
      description: `One of the ${what}, by id${resource === 'entities' ? ' or internal_uuid' : ''}.`,
      toolset: documentResource(resource) ? 'documents' : 'catalog',
      write: false,
      annotations: READ,
      project: true,
      output: RESOURCE_SCHEMAS[resource],
      input: { id: describe(numberOrText, `the ${one}'s id`), ...resourceInputs(resource, 'get') },
      async run(args, call) {
        const id = checkResourceId(resource, args.id as string);
        const extra = resourceQuery(args);
        const projectId = call.project(args.projectId as string | undefined);
        return dataResult(
          await call.ctx.api.catalog.get(resource, projectId, id, extra).catch(notFound(one, id, projectId)),
        );
      },
    };
    return [list, get];
  });
}

/** "an artist", "a contract": the tools' titles are read as sentences. */
const withArticle = (noun: string): string => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

/**
 * A 404 names what the agent asked for: the service's own message ("artist not found") says
 * neither the id nor the project, and an agent asking for several would not know which one failed.
 * The service's message stays under it (it may say the project is unknown), with the status.
 */
function notFound(kind: string, id: string, projectId?: string): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof NotFoundError)) throw error;
    throw new NotFoundError(`${kind} ${id} not found${projectId === undefined ? '' : ` in project ${projectId}`}`, {
      status: 404,
      cause: error,
      details: [error.message, ...error.details],
    });
  };
}

const documentResource = (resource: ResourceName): boolean => resourceOf(resource).document !== undefined;

function nextLine(tool: string, cursor: string): string {
  return `more: call ${tool} with {"cursor": "${cursor}"}`;
}

/** A slice of at most `max` items from `offset`, with the lines that say where it is. */
function slice<T>(
  items: T[],
  noun: string,
  tool: string,
  args: Record<string, unknown>,
  cursor: CursorState,
  max: number,
) {
  const part = items.slice(cursor.offset, cursor.offset + max);
  const end = cursor.offset + part.length;
  const next = end < items.length ? cursor.next(args, end) : null;
  return {
    part,
    before:
      part.length === 0
        ? `no ${noun} (${items.length} in all)`
        : `${noun} ${cursor.offset + 1}-${end} of ${items.length}`,
    after: [next ? nextLine(tool, next) : 'last page'],
    structured: { items: part, next_cursor: next, total: items.length },
  };
}

function documentTools(): ToolDefinition[] {
  return [
    ...(Object.keys(DOCUMENT_KINDS) as DocumentKind[]).flatMap((kind) => [statusTool(kind), uploadTool(kind)]),
    statementLinesTool(READ),
    ...earnedTools(READ),
  ];
}

/** What a kind's status tool calls the id it takes: a contract upload is known by its staging id. */
const documentIdName = (kind: DocumentKind): string => (kind === 'contract' ? 'stagingId' : 'id');

/** `<kind>_status`: the processing status of an upload. */
function statusTool(kind: DocumentKind): ToolDefinition {
  const idName = documentIdName(kind);
  return {
    name: `${kind}_status`,
    title: `Processing status of a ${kind} upload`,
    description:
      kind === 'contract'
        ? 'Processing status of a contract upload, by the stagingId upload_contract returned: state (running, completed, failed), stages, extractions, why it failed.'
        : 'Processing status of a statement upload, by the staging id upload_statement returned or a statement id: state (running, completed, failed), stages, why it failed.',
    toolset: 'documents',
    write: false,
    annotations: READ,
    project: true,
    output: kind === 'contract' ? ContractProcesses : StatementProcesses,
    input: {
      [idName]: describe(
        numberOrText,
        kind === 'contract' ? 'the staging_id of the upload' : 'a staging_id, or a statement id',
      ),
    },
    async run(args, call) {
      const id = checkDocumentId(kind, args[idName] as string);
      const projectId = call.project(args.projectId as string | undefined);
      const processes = await call.ctx.api.documents
        .processes(kind, projectId, id)
        .catch(notFound(`${kind} upload`, id, projectId));
      const progress = progressOf(processes);
      // Why it failed is the service's text: it stays in the data, inside the markers.
      return dataResult(processes.data, { before: `state: ${progress.outcome}` });
    },
  };
}

/** `upload_<kind>`: a local file uploaded, with the upload context `pds upload` takes. */
function uploadTool(kind: DocumentKind): ToolDefinition {
  const idName = documentIdName(kind);
  return {
    name: `upload_${kind}`,
    title: kind === 'contract' ? 'Upload a contract PDF' : 'Upload a statement file',
    description:
      (kind === 'contract'
        ? 'Uploads a contract PDF from the local disk (at most 50 MiB) for processing; returns its staging_id. '
        : `Uploads a statement file from the local disk (at most 50 MiB; ${STATEMENT_EXTENSIONS.join(' ')}, or a PDF alone where the service predates the other formats) for processing; returns its staging_id. `) +
      `Follow it with ${kind}_status. Each call adds a document: do not repeat a call that may have succeeded.`,
    toolset: 'uploads',
    write: true,
    annotations: UPLOAD,
    project: true,
    output: uploadOutput(kind),
    input: {
      path: describe(
        z.string(),
        `path of the ${kind === 'contract' ? 'PDF' : 'file'} on this machine (absolute, or relative to the directory pds mcp runs in), inside the roots pds mcp was started with; hidden files are refused`,
      ),
      ...(kind === 'contract'
        ? {
            extract: describe(
              flagSchema('extract', UPLOAD_FLAGS.extract),
              `extractions to run: ${EXTRACTIONS.map(shortExtraction).join(', ')} (with or without the extract- prefix)`,
            ),
          }
        : {}),
      ...contextInputs(kind),
    },
    async run(args, call) {
      const extractions = extractionNames(args.extract as string[] | undefined);
      // Checked before the file is read: a bad period sends nothing.
      const context = uploadContext({
        ...(args as Omit<ContextOptions, 'kind'>),
        tag: (args.tag as string[] | undefined) ?? [],
        kind,
      });
      const projectId = call.project(args.projectId as string | undefined);
      const file = await call.localFile(args.path as string, kind);
      let shown = -1;
      const record = await call.ctx.api.documents
        .upload(kind, projectId, file, {
          ...(extractions ? { extractions } : {}),
          ...context,
          idleTimeoutMs: call.ctx.settings.timeoutMs,
          allowHttp: call.ctx.settings.allowHttp,
          signal: call.signal,
          onBytes: (sent, total) => {
            // One notification per whole percent: a 50 MiB body is some 200 chunks.
            const percent = Math.floor((sent / total) * 100);
            if (percent === shown) return;
            shown = percent;
            call.progress(sent, total, `${formatBytes(sent)} of ${formatBytes(total)} sent`);
          },
        })
        .finally(() => releaseLocalFile(file));
      return dataResult(record, {
        before: `uploaded ${file.fileName} (${file.size} bytes)`,
        after: [`follow it with ${kind}_status {"${idName}": ${record.staging_id}}`],
      });
    },
  };
}

/** The upload context a kind takes, as `pds upload <kind>` takes it: a contract's is its tags and folder. */
function contextInputs(kind: DocumentKind): Record<string, z.ZodMiniType> {
  const flags = Object.entries(CONTEXT_FLAGS).filter(([key]) => kind === 'statement' || !STATEMENT_ONLY.includes(key));
  return Object.fromEntries(flags.map(([key, flag]) => [key, flagInput(key, flag)]));
}

function projectTools(): ToolDefinition[] {
  return [
    {
      name: 'list_projects',
      title: 'List projects',
      description: 'The projects the credentials can see.',
      toolset: 'catalog',
      write: false,
      annotations: READ,
      project: false,
      output: listOutput(Project),
      input: { cursor: cursorInput },
      async run(args, call, cursor) {
        const projects = await call.ctx.api.projects.list();
        const { part, before, after, structured } = slice(
          projects,
          'projects',
          'list_projects',
          args,
          cursor,
          call.maxResults,
        );
        return dataResult(part, { before, after, structured });
      },
    },
    {
      name: 'get_project',
      title: 'Get a project',
      description: 'One project: its name, organization and creation date.',
      toolset: 'catalog',
      write: false,
      annotations: READ,
      project: true,
      output: Project,
      input: {},
      async run(args, call) {
        const projectId = call.project(args.projectId as string | undefined);
        return dataResult(await call.ctx.api.projects.get(projectId).catch(notFound('project', projectId)));
      },
    },
    {
      name: 'search',
      title: 'Search the project',
      description:
        "Searches the project: contracts, entities, artists, writers, recordings and compositions, in the service's order (grouped by type in that order, each type best match first).",
      toolset: 'search',
      write: false,
      annotations: READ,
      project: true,
      output: listOutput(SearchResult),
      input: {
        query: describe(z.string(), 'words to look for, 1 to 500 characters'),
        type: describe(
          flagSchema('type', SEARCH_FLAGS.type),
          `only these types, comma-separated or a list: ${SEARCH_TYPES.join(', ')}`,
        ),
        limit: describe(z.optional(wholeNumber('limit', 1)), 'at most this many results in all'),
        cursor: cursorInput,
      },
      async run(args, call, cursor) {
        const query = searchQuery(args.query as string);
        const types = searchTypes(args.type as string | string[] | undefined);
        const projectId = call.project(args.projectId as string | undefined);
        let hits = await call.ctx.api.projects.search(projectId, query);
        if (types.length > 0) hits = hits.filter((hit) => types.includes(hit.type));
        if (args.limit !== undefined) hits = hits.slice(0, args.limit as number);
        const { part, before, after, structured } = slice(
          hits,
          'results',
          'search',
          { ...args, projectId },
          cursor,
          call.maxResults,
        );
        return dataResult(part, { before, after, structured });
      },
    },
  ];
}

function sandboxTools(): ToolDefinition[] {
  return [
    {
      name: 'sandbox_exec',
      title: 'Run bash commands in the sandbox',
      description:
        "Runs bash commands, in order, in the project's sandbox: a file-system view of the project's data " +
        "(read /AGENTS.md first). Returns each command's stdout, stderr and exit code. Commands change nothing in the service.",
      toolset: 'sandbox',
      write: false,
      annotations: SANDBOX,
      project: true,
      output: z.object({ results: z.array(ExecResult) }),
      input: {
        commands: describe(z.array(z.string()), "bash commands, one per item, e.g. ['cat stats.yaml', 'ls contracts']"),
      },
      run: execInSandbox,
    },
    {
      name: 'sandbox_read',
      title: 'Read a sandbox file or directory',
      description:
        "A file's content or a directory's entries (sub-directories end with /) in the project's sandbox. Start with / and /AGENTS.md.",
      toolset: 'sandbox',
      write: false,
      annotations: READ,
      project: true,
      output: z.object({
        type: z.enum(['file', 'directory']),
        path: z.string(),
        entries: z.optional(z.array(z.string())),
        content: z.optional(z.string()),
        next_cursor: nextCursor,
      }),
      input: {
        path: describe(z.optional(z.string()), `path in the sandbox (default ${ROOT})`),
        cursor: cursorInput,
      },
      async run(args, call, cursor) {
        const path = (args.path as string | undefined) ?? ROOT;
        const projectId = call.project(args.projectId as string | undefined);
        const session = await call.ctx.api.sandbox.connect(projectId);
        const entry = await readPath(call.ctx, { projectId, session }, path);
        const next = { ...args, projectId };
        if (entry.type === 'directory') {
          const { part, before, after, structured } = slice(
            entry.entries,
            `entries of ${path}`,
            'sandbox_read',
            next,
            cursor,
            call.maxResults,
          );
          const listed = { type: 'directory', path, entries: part };
          return dataResult(listed, { before, after, structured: { ...listed, next_cursor: structured.next_cursor } });
        }
        const end = Math.min(entry.content.length, cursor.offset + MAX_TEXT_CHARS);
        const content = entry.content.slice(cursor.offset, end);
        const file = { type: 'file', path, content };
        if (cursor.offset === 0 && end === entry.content.length)
          return dataResult(file, { structured: { ...file, next_cursor: null } });
        const more = end < entry.content.length ? cursor.next(next, end) : null;
        return dataResult(file, {
          before: `characters ${cursor.offset + 1}-${end} of ${entry.content.length}`,
          after: [more ? nextLine('sandbox_read', more) : 'end of file'],
          structured: { ...file, next_cursor: more },
        });
      },
    },
  ];
}

/** sandbox_exec: the commands run in order, their output capped, with a progress tick each second. */
async function execInSandbox(args: Record<string, unknown>, call: Call): Promise<CallToolResult> {
  const commands = args.commands as string[];
  if (commands.length === 0) throw new UsageError('commands: no commands to run');
  const projectId = call.project(args.projectId as string | undefined);
  await call.ctx.api.sandbox.connect(projectId);
  // The sandbox answers once, when every command has run: the progress is the seconds waited.
  const started = Date.now();
  call.progress(0, undefined, `${commands.length} command${commands.length === 1 ? '' : 's'} sent to the sandbox`);
  const ticker = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    call.progress(seconds, undefined, `running for ${seconds} s`);
  }, 1000);
  let results: Awaited<ReturnType<typeof call.ctx.api.sandbox.exec>>;
  try {
    results = await call.ctx.api.sandbox.exec(projectId, commands, { signal: call.signal });
  } finally {
    clearInterval(ticker);
  }
  const cuts: string[] = [];
  const capped = results.map((result, index) => {
    const stdout = cap(result.stdout);
    const stderr = cap(result.stderr);
    // The command as the service echoes it is service text: the line names it by its place.
    if (stdout.cut || stderr.cut)
      cuts.push(`output of command ${index + 1} cut at ${MAX_TEXT_CHARS} characters: narrow it (head, grep, wc)`);
    return { ...result, stdout: stdout.text, stderr: stderr.text };
  });
  return dataResult(capped, {
    before: `${results.length} command${results.length === 1 ? '' : 's'} run`,
    after: cuts,
    structured: { results: capped },
  });
}

function cap(text: string): { text: string; cut: boolean } {
  return text.length <= MAX_TEXT_CHARS ? { text, cut: false } : { text: text.slice(0, MAX_TEXT_CHARS), cut: true };
}

// A tag list is replaced as a whole (a tag may go); setting the same list again changes nothing.
const TAGGING: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};
// A retry queues a paused upload again: nothing is lost, and a second call finds it queued.
const RETRY: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** `pds contracts|statements <name>`: the definition the CLI registers, made by the same function. */
function documentVerb(kind: DocumentKind, name: string): AnyVerb {
  const found = documentVerbs(kind).find((v) => v.name === name);
  if (!found) throw new Error(`no verb 'pds ${kind}s ${name}'`);
  return found;
}

/** The verbs of the deployed service's additions, offered as they are in the CLI (verb-tools.ts). */
function serviceTools(): ToolDefinition[] {
  const kinds = ['contract', 'statement'] as const;
  return [
    verbTool({
      verb: knowledgeSearch,
      command: 'knowledge search',
      name: 'knowledge_search',
      title: 'Search the knowledge graph',
      toolset: 'knowledge',
      write: false,
      annotations: READ,
      args: ['query'],
      output: { list: KnowledgeNode },
    }),
    verbTool({
      verb: tagsLs,
      command: 'tags ls',
      name: 'list_tags',
      title: 'List tags',
      toolset: 'tags',
      write: false,
      annotations: READ,
      args: [],
      output: { list: Tag },
    }),
    ...kinds.map((kind) =>
      verbTool({
        verb: documentVerb(kind, 'tag'),
        command: `${kind}s tag`,
        name: `tag_${kind}`,
        title: `Set the tags of a ${kind}`,
        toolset: 'tags',
        write: true,
        annotations: TAGGING,
        args: ['id', 'tags'],
        output: {
          record: z.looseObject({ resource_id: z.union([z.int(), z.string()]), scope: z.string(), tags: z.string() }),
        },
        more: 'tags: the complete list, unless add or remove is true; clear: true with no tags removes them all.',
      }),
    ),
    ...kinds.map((kind) =>
      verbTool({
        verb: documentVerb(kind, 'retry'),
        command: `${kind}s retry`,
        name: `retry_${kind}`,
        title: `Queue a paused ${kind} upload again`,
        toolset: 'uploads',
        write: true,
        annotations: RETRY,
        args: ['stagingId'],
        output: { record: StagingRetry },
        more: `Only for an upload ${kind}_status shows paused.`,
      }),
    ),
    verbTool({
      verb: updateStatement,
      command: 'statements update',
      name: 'update_statement',
      title: "Change a statement's payee, payor, periods or currencies",
      toolset: 'uploads',
      write: true,
      annotations: TAGGING,
      args: ['id'],
      output: { record: StatementUpdate },
    }),
  ];
}

/** Every tool, in the order a client lists them. */
export const TOOLS: ToolDefinition[] = [
  ...projectTools(),
  ...catalogTools(),
  ...documentTools(),
  ...sandboxTools(),
  ...serviceTools(),
];

/**
 * The input object of a tool as the server offers it: its fields, `projectId` unless the project is
 * pinned, strict so that a misspelt argument is named instead of ignored.
 */
export function inputSchema(tool: ToolDefinition, pinned: boolean) {
  return z.strictObject({ ...tool.input, ...(tool.project && !pinned ? { projectId: projectIdInput } : {}) });
}

const isRequired = (schema: z.ZodMiniType): boolean => !schema.safeParse(undefined).success;

/**
 * The input object a client is shown. A tool that pages takes its cursor alone, so what it needs
 * otherwise (a statement's id, a search's query) is required only without a cursor: `resume` checks it.
 */
export function offeredSchema(tool: ToolDefinition, pinned: boolean): ReturnType<typeof inputSchema> {
  const full = inputSchema(tool, pinned);
  if (!('cursor' in tool.input)) return full;
  const fields = Object.entries(full.def.shape).map(([key, schema]) => [
    key,
    isRequired(schema) ? z.optional(schema) : schema,
  ]);
  return z.strictObject(Object.fromEntries(fields) as typeof full.def.shape);
}

/** Turns a call's arguments (or its cursor) into the arguments and offset the tool runs with. */
export function resume(
  tool: ToolDefinition,
  pinned: boolean,
  args: Record<string, unknown>,
): { args: Record<string, unknown>; offset: number } {
  if (typeof args.cursor !== 'string') {
    const missing = Object.entries(tool.input).filter(([key, schema]) => isRequired(schema) && args[key] === undefined);
    if (missing.length > 0) {
      const names = missing.map(([key]) => key).join(', ');
      throw new UsageError(`${names}: required, unless a cursor of a previous ${tool.name} call is passed alone`);
    }
    return { args, offset: 0 };
  }
  const others = Object.keys(args).filter((key) => key !== 'cursor' && args[key] !== undefined);
  if (others.length > 0) {
    throw new UsageError(
      `cursor: pass it alone (it carries the previous call's arguments), without ${others.join(', ')}`,
    );
  }
  const decoded = decodeCursor(tool.name, args.cursor);
  const parsed = inputSchema(tool, pinned).safeParse(decoded.args);
  if (!parsed.success)
    throw new UsageError(`invalid cursor: pass the cursor of the previous ${tool.name} call unchanged`);
  return { args: parsed.data, offset: decoded.offset };
}

export function cursorState(tool: ToolDefinition, pinned: boolean, offset: number): CursorState {
  return { offset, next: (args, nextOffset = 0) => encodeCursor(tool.name, strip(args, pinned), nextOffset) };
}

/** Arguments as the schema takes them back: no cursor, nothing undefined, no projectId when pinned. */
function strip(args: Record<string, unknown>, pinned: boolean): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).filter(
      ([key, value]) => key !== 'cursor' && value !== undefined && !(pinned && key === 'projectId'),
    ),
  );
}
