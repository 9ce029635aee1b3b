// `pds sandbox …`: the project's data as files, explored with bash on the service. The definitions: plain data, no code.
import { verb, type NounDef } from '../../lib/verbs/verb.js';

/** The noun: what `pds sandbox --help` says of it (index.ts adds its verbs). */
export const noun = {
  name: 'sandbox',
  description: "explore the project's data as files, with bash commands run by the service",
  notes: 'Every verb connects to the sandbox by itself; `connect` and `disconnect` manage the session explicitly.',
  examples: [
    ['pds sandbox info', "the workspace's guide (AGENTS.md)"],
    [
      "pds sandbox exec 'find contracts -name royalties.yaml | wc -l'",
      'how many contracts have royalty terms extracted',
    ],
    ['pds sandbox shell', undefined, 'a terminal'],
  ],
} satisfies Omit<NounDef, 'verbs'>;

const PATH_HELP = 'directory (or file) in the sandbox';

export const exec = verb({
  name: 'exec',
  dryRun: { none: 'the sandbox runs the commands; `pds sandbox ls` and `cat` only read' },
  description: 'run bash commands in the sandbox, in order, in one request',
  args: [
    {
      name: 'command',
      help: 'each argument is one bash command; `-` alone reads them from stdin, one per line',
      variadic: true,
    },
  ],
  flags: {
    parallel: {
      type: 'boolean',
      help: 'run the commands at the same time, each in a sandbox of its own (results still print in order)',
    },
  },
  scripting: ['jq'],
  notes: `Each command's stdout goes to stdout and its stderr to stderr. The exit code is the last non-zero
exit code of the commands (0 if all succeed), also with --json, which prints the result array
[{command, stdout, stderr, exitCode}]. From stdin, blank lines and lines starting with # are skipped.`,
  examples: [
    ["pds sandbox exec 'cat stats.yaml'"],
    ["pds sandbox exec 'cd contracts' 'ls'", 'each command starts at the workspace root again'],
    ["printf 'ls\\ncat stats.yaml\\n' | pds sandbox exec -"],
  ],
});

export const ls = verb({
  name: 'ls',
  aliases: ['list'],
  description: 'list a sandbox directory (default: the workspace root); directories end with /',
  args: [{ name: 'path', help: PATH_HELP }],
  paged: true,
  scripting: ['jq'],
  notes:
    'Columns on a terminal, one name per line when piped; --json prints the names as an array. Given a file, prints its path, as ls does.',
  examples: [['pds sandbox ls'], ['pds sandbox ls contracts']],
});

export const cat = verb({
  name: 'cat',
  description: 'print a sandbox file, byte for byte (--json: {type, content})',
  args: [{ name: 'path', help: 'file in the sandbox, e.g. stats.yaml', required: true }],
  paged: true,
  scripting: ['jq'],
  examples: [['pds sandbox cat stats.yaml'], ['pds sandbox cat AGENTS.md | less']],
});

export const info = verb({
  name: 'info',
  description: "print the workspace's guide, AGENTS.md: layout, counts, example commands",
  paged: true,
  scripting: ['jq'],
  examples: [['pds sandbox info']],
});

export const shell = verb({
  name: 'shell',
  dryRun: { none: 'the sandbox runs what is typed' },
  description: 'an interactive prompt: each line runs through exec; cd is kept across lines',
  notes:
    'Needs a terminal on stdin (for scripts: pds sandbox exec -). `exit` or Ctrl-D leaves and disconnects; Ctrl-C cancels the line being typed, or stops waiting for a running command.',
  examples: [['pds sandbox shell', 'Ctrl-D or `exit` leaves', 'a terminal']],
});

export const connect = verb({
  name: 'connect',
  dryRun: { none: 'it starts a sandbox session' },
  description: "open the project's sandbox session (--json: the service's answer)",
  scripting: ['jq'],
  examples: [['pds sandbox connect', 'start the session now rather than on first use']],
});

export const disconnect = verb({
  name: 'disconnect',
  dryRun: { none: 'it ends the sandbox session' },
  description: "end the project's sandbox session (--json: the service's answer)",
  scripting: ['jq'],
  examples: [['pds sandbox disconnect']],
});
