// The tags' tools: the project's tags, and a document's tags set, as `pds tags ls` and
// `pds contracts|statements tag` do them (verb-tools.ts).
import * as z from 'zod/mini';
import { Tag } from '../../lib/schemas.js';
import { ls as tagsLs } from '../tags/index.js';
import { READ, writing, type ToolDefinition } from './tool.js';
import { verbInputs } from './inputs.js';
import { DOCUMENT_VERB_KINDS, documentVerbInputs, verbTool } from './verb-tools.js';

// A tag list is replaced as a whole (a tag may go); setting the same list again changes nothing.
export const TAGGING = writing(true, true);

export function tagsTools(): ToolDefinition[] {
  const kinds = DOCUMENT_VERB_KINDS;
  return [
    verbTool({
      verb: tagsLs,
      ...verbInputs(tagsLs, []),
      command: 'tags ls',
      name: 'list_tags',
      title: 'List tags',
      toolset: 'tags',
      write: false,
      annotations: READ,
      output: { list: Tag },
    }),
    ...kinds.map((kind) =>
      verbTool({
        ...documentVerbInputs(kind, 'tag', ['id', 'tags']),
        command: `${kind}s tag`,
        name: `tag_${kind}`,
        title: `Set the tags of a ${kind}`,
        toolset: 'tags',
        write: true,
        annotations: TAGGING,
        output: {
          record: z.looseObject({ resource_id: z.union([z.int(), z.string()]), scope: z.string(), tags: z.string() }),
        },
        more: 'tags: the complete list, unless add or remove is true; clear: true with no tags removes them all.',
      }),
    ),
  ];
}
