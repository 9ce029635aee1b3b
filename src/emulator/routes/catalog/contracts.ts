// GET /v1/contracts and /v1/contracts/{id}, with their includes and the deployed service's options.
import { generatedFileName } from '../../generated-files.js';
import { CURRENT_INCLUDES, SEED_INCLUDES, type Include as ContractInclude } from '../../vocabulary.js';
import { HttpError, queryProject, type Handler, type RouteContext } from '../../http.js';
import { deployedContract } from '../../deployed/contracts.js';
import type { ContractRecord, ProjectData } from '../../store.js';
import { type Fields, arrayPage, found, deployed } from './common.js';
import { listParam } from './entities.js';
import { current, boolParam, scoreOf } from './statements.js';

/** The contract options of the deployed service: extractorIds, score, citations. */
interface ContractOptions {
  includes: ContractInclude[];
  score: boolean;
  citations: boolean;
  extractorIds: string[];
}

function contractOptions(ctx: RouteContext): ContractOptions {
  const known: readonly string[] = current(ctx) ? CURRENT_INCLUDES : SEED_INCLUDES;
  const values = listParam(ctx, 'includes');
  const errors: Record<string, string[]> = {};
  const unknown = values.filter((value) => !known.includes(value));
  if (unknown.length > 0)
    errors.includes = unknown.map((value) => `unknown include '${value}'; valid: ${known.join(', ')}`);
  let score = false;
  let citations = false;
  const extractorIds = current(ctx) ? [...new Set(listParam(ctx, 'extractorIds'))] : [];
  if (current(ctx)) {
    score = boolParam(ctx, 'score', errors);
    citations = boolParam(ctx, 'citations', errors);
    if (extractorIds.some((id) => !/^[\w.-]{1,64}$/.test(id)))
      errors.extractorIds = ['extractorIds must be a comma-separated list of ids'];
  }
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  return { includes: [...new Set(values)] as ContractInclude[], score, citations, extractorIds };
}

/** The base fields, plus one array per requested include (empty when nothing was extracted). */
const contractShape =
  (ctx: RouteContext, data: ProjectData, options: ContractOptions) =>
  (c: ContractRecord): Fields => {
    if (deployed(ctx)) return deployedContract(c, data, options);
    const out: Fields = { id: c.id, name: c.name, project_id: c.project_id, created_at: c.created_at };
    if (current(ctx)) {
      // Every deployed record has its file; seeded contracts are named after the generated PDF.
      out.file_name = c.file_name ?? generatedFileName(c.name);
      out.file_type = c.file_type ?? 'application/pdf';
      out.tags = c.tags ?? [];
      if (options.score) out.score = scoreOf(c.id);
    }
    for (const include of options.includes) {
      const rows = c.includes[include] ?? [];
      out[include] = options.citations
        ? rows.map((row) => ({ ...row, citations: [{ page: 1, text: String(row.id ?? '') }] }))
        : rows;
    }
    return out;
  };

export const listContracts: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return arrayPage(ctx, data.contracts, contractShape(ctx, data, contractOptions(ctx)));
};

export const getContract: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const options = contractOptions(ctx);
  const id = ctx.params.id ?? '';
  const contract = found(
    data.contracts.find((c) => c.id === id),
    'contract',
  );
  return { body: { data: contractShape(ctx, data, options)(contract) } };
};
