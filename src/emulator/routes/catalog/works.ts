// GET /v1/compositions and /v1/recordings, and one of each by id.
import { flag, queryProject, type Handler, type RouteContext } from '../../http.js';
import { deployedComposition, deployedRecording } from '../../deployed/records.js';
import type { CompositionRecord, ProjectData, RecordingRecord } from '../../store.js';
import { type Fields, compact, envelopePage, found, deployed, recordOf } from './common.js';

const compositionShape =
  (withProducts: boolean) =>
  (c: CompositionRecord): Fields =>
    compact({
      id: c.id,
      name: c.name,
      type: c.type,
      writers: c.writers,
      artists: c.artists,
      created_at: c.created_at,
      updated_at: c.updated_at,
      products: withProducts ? c.products : undefined,
    });

const recordingShape =
  (withProducts: boolean) =>
  (r: RecordingRecord): Fields =>
    compact({
      id: r.id,
      name: r.name,
      duration_ms: r.duration_ms,
      type: r.type,
      artists: r.artists,
      created_at: r.created_at,
      updated_at: r.updated_at,
      products: withProducts ? r.products : undefined,
    });

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
