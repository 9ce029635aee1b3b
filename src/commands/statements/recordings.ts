// The catalog's recordings by ISRC, listed once for a roll-up `--by isrc`: the name and artists
// each ISRC of the lines stands for.
import type { Context } from '../../lib/context.js';

export interface Recording {
  name: string | null;
  artists: string[];
}

/** Every ISRC a recording carries (its own field, or its identifiers of type isrc), upper case. */
function isrcsOf(recording: Record<string, unknown>): string[] {
  const found: string[] = [];
  if (typeof recording.isrc === 'string') found.push(recording.isrc);
  if (Array.isArray(recording.identifiers))
    for (const id of recording.identifiers)
      if (typeof id === 'object' && id !== null && String((id as { type?: unknown }).type).toLowerCase() === 'isrc')
        found.push(String((id as { value?: unknown }).value ?? ''));
  return found.map((isrc) => isrc.trim().toUpperCase()).filter((isrc) => isrc !== '');
}

const artistName = (artist: unknown): string | undefined =>
  typeof artist === 'string'
    ? artist
    : typeof artist === 'object' && artist !== null && typeof (artist as { name?: unknown }).name === 'string'
      ? (artist as { name: string }).name
      : undefined;

/** ISRC (upper case) → its recording; the first recording listed wins an ISRC two carry. */
export async function recordingsByIsrc(ctx: Context, projectId = ctx.project()): Promise<Map<string, Recording>> {
  const byIsrc = new Map<string, Recording>();
  for await (const page of ctx.api.catalog.allPages('recordings', { projectId, page: 1, perPage: 100 })) {
    for (const item of page.items) {
      const recording: Recording = {
        name: typeof item.name === 'string' ? item.name : null,
        artists: Array.isArray(item.artists) ? item.artists.map(artistName).filter((a) => a !== undefined) : [],
      };
      for (const isrc of isrcsOf(item)) if (!byIsrc.has(isrc)) byIsrc.set(isrc, recording);
    }
  }
  return byIsrc;
}
