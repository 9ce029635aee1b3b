// `pds knowledge search`: the project's knowledge graph (docs/service.md). The definitions: plain data, no code.
import { verb, type NounDef } from '../../lib/verbs/verb.js';
import { KNOWLEDGE_KINDS } from '../../lib/transfer/formats.js';

/** The noun: what `pds knowledge --help` says of it (index.ts adds its verbs). */
export const noun = {
  name: 'knowledge',
  description: "the project's knowledge graph: nodes, claims, relationships",
  examples: [['pds knowledge search recoupment --kind policy,decision']],
} satisfies Omit<NounDef, 'verbs'>;

export const search = verb({
  name: 'search',
  description:
    'search the knowledge of the project: people, organizations, topics, with their claims and relationships',
  args: [{ name: 'query', help: 'words to look for', required: true, variadic: true }],
  flags: {
    kind: {
      type: 'list',
      value: 'kinds',
      help: `only these kinds (pds filters the answer; the service has none): ${KNOWLEDGE_KINDS.join(', ')}`,
      completion: KNOWLEDGE_KINDS,
    },
    limit: {
      type: 'number',
      value: 'n',
      integer: true,
      min: 1,
      max: 50,
      help: 'at most this many nodes asked of the service, before --kind (the service default: 10)',
    },
  },
  scripting: ['jq'],
  examples: [['pds knowledge search royalty operations'], ['pds knowledge search Nova --kind person --json']],
});
