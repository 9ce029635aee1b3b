// The knowledge graph's tool: `pds knowledge search`, offered as the CLI has it (verb-tools.ts).
import { KnowledgeNode } from '../../lib/schemas.js';
import { search as knowledgeSearch } from '../knowledge/index.js';
import { verbInputs } from './inputs.js';
import { READ, type ToolDefinition } from './tool.js';
import { verbTool } from './verb-tools.js';

export function knowledgeTools(): ToolDefinition[] {
  return [
    verbTool({
      verb: knowledgeSearch,
      ...verbInputs(knowledgeSearch, ['query']),
      command: 'knowledge search',
      name: 'knowledge_search',
      title: 'Search the knowledge graph',
      toolset: 'knowledge',
      write: false,
      annotations: READ,
      output: { list: KnowledgeNode },
    }),
  ];
}
