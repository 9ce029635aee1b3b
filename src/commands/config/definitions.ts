// `pds config list|get|set|unset` (the profile's stored settings) and `pds use <project>`. The definitions: plain data, no code.
import { verb, type NounDef } from '../../lib/verbs/verb.js';
import { DEMO_PROJECT } from '../examples.js';
import { CONFIG_KEYS } from '../../lib/config/keys.js';

/** The noun: what `pds config --help` says of it (index.ts adds its verbs). */
export const noun = {
  name: 'config',
  description: `read and change the profile's stored settings: ${CONFIG_KEYS.join(', ')}`,
  examples: [['pds config list'], ['pds config set api-url https://pds.example.com']],
} satisfies Omit<NounDef, 'verbs'>;

const KEY = { name: 'key', help: CONFIG_KEYS.join(', '), required: true, completion: CONFIG_KEYS } as const;

export const list = verb({
  name: 'list',
  aliases: ['ls'],
  description: "print the profile's stored settings (the token masked)",
  scripting: ['jq', 'fields'],
  examples: [['pds config list'], ['pds --profile staging config list --json']],
});

export const get = verb({
  name: 'get',
  description: 'print one stored setting (exit 1 when it is not set)',
  args: [KEY],
  scripting: ['jq'],
  examples: [['pds config get project']],
});

export const set = verb({
  name: 'set',
  dryRun: 'honoured',
  description: 'store a setting in the profile',
  args: [
    KEY,
    {
      name: 'value',
      help: 'a base URL without /v1, a project UUID, seconds, or true/false (allow-http)',
      required: true,
    },
  ],
  allowsNewProfile: true,
  examples: [['pds config set api-url https://pds.example.com'], ['pds config set timeout 60']],
});

export const unset = verb({
  name: 'unset',
  dryRun: 'honoured',
  description: 'remove a setting from the profile',
  args: [KEY],
  examples: [['pds config unset timeout']],
});

export const use = verb({
  name: 'use',
  dryRun: 'honoured',
  description: "set the profile's default project",
  args: [
    { name: 'project', help: 'project UUID, or its exact name', required: true, completion: 'projects and names' },
  ],
  allowsNewProfile: true,
  examples: [['pds use "Northern Lights Catalog"'], [`pds use ${DEMO_PROJECT}`]],
});
