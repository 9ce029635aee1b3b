// Project search in the deployed service's form (docs/service.md, "Records"): the hits of
// ../search.ts grouped by type, each group in the fields the service gives it.
import { generatedFileName } from '../generated-files.js';
import type { SearchHit } from '../search.js';
import type { ProjectData } from '../store.js';
import { deployedId, documentId } from './ids.js';
import { byId } from './indexes.js';
import { artistRef, type Fields } from './records.js';

/** The query's words found in a name, as the service reports them: one string. */
const matchedKeywords = (name: string, words: string[]): string =>
  words.filter((word) => name.toLowerCase().includes(word)).join(' ');

function recordingHit(data: ProjectData, hit: SearchHit, words: string[]): Fields {
  const recording = byId(data.recordings).get(hit.id);
  return {
    id: deployedId('recording', hit.id),
    name: hit.name,
    duration_ms: recording?.duration_ms ?? null,
    artists: recording ? recording.artists.map(artistRef) : null,
    matched_keywords: matchedKeywords(hit.name, words),
    is_metadata_match: true,
    rank: hit.score,
  };
}

function compositionHit(data: ProjectData, hit: SearchHit, words: string[]): Fields {
  const composition = byId(data.compositions).get(hit.id);
  return {
    id: deployedId('composition', hit.id),
    name: hit.name,
    writers: null,
    artists: composition ? composition.artists.map(artistRef) : null,
    matched_keywords: matchedKeywords(hit.name, words),
    is_metadata_match: true,
    rank: hit.score,
  };
}

/** A contract is found by its name and named by its file: the deployed contract has no name. */
function contractHit(data: ProjectData, hit: SearchHit, words: string[]): Fields {
  const contract = data.contracts.find((c) => c.id === hit.id);
  return {
    id: documentId(hit.id),
    matched_file_name: contract?.file_name ?? generatedFileName(hit.name),
    matched_keywords: matchedKeywords(hit.name, words),
    is_content_match: false,
    rank: hit.score,
  };
}

/** `{recordings, compositions, contracts, entities, artists, writers}`, each in rank order. */
export function deployedSearch(data: ProjectData, hits: readonly SearchHit[], q: string): Record<string, Fields[]> {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const grouped: Record<string, Fields[]> = {
    recordings: [],
    compositions: [],
    contracts: [],
    entities: [],
    artists: [],
    writers: [],
  };
  for (const hit of hits) {
    if (hit.type === 'recording') grouped.recordings?.push(recordingHit(data, hit, words));
    else if (hit.type === 'composition') grouped.compositions?.push(compositionHit(data, hit, words));
    else if (hit.type === 'contract') grouped.contracts?.push(contractHit(data, hit, words));
    else
      grouped[hit.type === 'entity' ? 'entities' : `${hit.type}s`]?.push({
        id: deployedId(hit.type, hit.id),
        name: hit.name,
      });
  }
  return grouped;
}
