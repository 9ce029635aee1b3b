// GET /v1/compositions and /v1/recordings, and one of each by id.
import { flag, queryProject, type Handler, type RouteContext } from '../../http.js';
import { deployedComposition, deployedRecording } from '../../deployed/records.js';
import { fieldsOf, type CompositionRecord, type ProjectData, type RecordingRecord } from '../../store.js';
import { type Fields, compact, envelopePage, found, deployed, recordOf } from './common.js';

/** A work in the spec form: the fields named, in that order, and its products when asked for. */
const workShape =
  <W extends CompositionRecord | RecordingRecord>(fields: readonly (keyof W)[]) =>
  (withProducts: boolean) =>
  (work: W): Fields =>
    compact({ ...fieldsOf(work, fields), products: withProducts ? work.products : undefined });

const compositionShape = workShape<CompositionRecord>([
  'id',
  'name',
  'type',
  'writers',
  'artists',
  'created_at',
  'updated_at',
]);
const recordingShape = workShape<RecordingRecord>([
  'id',
  'name',
  'duration_ms',
  'type',
  'artists',
  'created_at',
  'updated_at',
]);

const compositionRenderer = (ctx: RouteContext): ((c: CompositionRecord) => Fields) =>
  (deployed(ctx) ? deployedComposition : compositionShape)(flag(ctx, 'includeProducts'));

const recordingRenderer = (ctx: RouteContext, data: ProjectData, byId = false): ((r: RecordingRecord) => Fields) =>
  deployed(ctx)
    ? deployedRecording(data, flag(ctx, 'includeProducts'), byId)
    : recordingShape(flag(ctx, 'includeProducts'));

export const listCompositions: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return envelopePage(ctx, data.compositions, compositionRenderer(ctx));
};

export const getComposition: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const composition = found(recordOf(ctx, data.compositions, 'composition'), 'composition');
  return { body: { data: compositionRenderer(ctx)(composition) } };
};

export const listRecordings: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  return envelopePage(ctx, data.recordings, recordingRenderer(ctx, data));
};

export const getRecording: Handler = (ctx) => {
  const { data } = queryProject(ctx);
  const recording = found(recordOf(ctx, data.recordings, 'recording'), 'recording');
  return { body: { data: recordingRenderer(ctx, data, true)(recording) } };
};
