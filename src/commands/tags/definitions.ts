// `pds tags ls`: the project's tags on contracts and statements (docs/service.md). The definitions: plain data, no code.
import { verb, type NounDef } from '../../lib/verbs/verb.js';

/** The noun: what `pds tags --help` says of it (index.ts adds its verbs). */
export const noun = {
  name: 'tags',
  description: 'tags on contracts and statements (set them with `pds contracts|statements tag`)',
  examples: [['pds tags ls --scope contracts']],
} satisfies Omit<NounDef, 'verbs'>;

export const ls = verb({
  name: 'ls',
  aliases: ['list'],
  description: "list the project's tags and how many records carry each",
  flags: {
    scope: {
      type: 'choice',
      value: 'scope',
      choices: ['contracts', 'statements'],
      help: 'only the tags of contracts or of statements',
    },
    search: { type: 'string', value: 's', nonEmpty: true, help: 'only tags containing this text' },
  },
  scripting: ['jq', 'fields'],
  examples: [['pds tags ls'], ['pds tags ls --scope statements --search q1']],
});
