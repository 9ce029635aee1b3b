// `pds tags ls`: the project's tags on contracts and statements (docs/service.md). The definitions: plain data, no code.
import { verb } from '../../lib/verb.js';

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
