// What help shows beyond commander's defaults: examples for every command (ids from the
// emulator's seed, so each one runs as written against `pds emulator start`), the global options
// under their own heading, `pds help <command...>`, and `pds help exit-codes`.
import { Help, type Command } from 'commander';
import { UsageError } from './errors.js';

/** An id of each catalog resource in the emulator's seed. */
const SEED_IDS: Record<string, string> = {
  contracts: '20001',
  statements: '40001',
  entities: 'ent_00001',
  relations: 'rel_00001',
  artists: 'art_00001',
  writers: 'wri_00001',
  recordings: 'rec_00001',
  compositions: 'com_00001',
};

const DEMO_PROJECT = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';

/** Examples by command path (`contracts ls`), each an example line and what it does. */
const EXAMPLES: Record<string, [string, string?][]> = {
  '': [
    ['pds contracts ls', 'the first page of the current project\'s contracts'],
    ['pds artists ls --all --jq \'.[].name\'', 'every artist\'s name, one per line'],
    ['pds help contracts ls', 'the help of one command'],
  ],
  projects: [['pds projects ls'], ['pds projects get']],
  'projects ls': [['pds projects ls'], ['pds projects ls --jq \'.[] | select(.name | test("north"; "i")) | .id\'', 'the id of a project found by name']],
  'projects get': [['pds projects get', 'the current project'], [`pds projects get ${DEMO_PROJECT} --fields id,name`]],
  search: [['pds search nova reyes'], ['pds search lumen --type contract,entity --limit 5'], ['pds search nova --jq \'.[] | select(.type == "artist") | .id\'']],
  upload: [['pds upload statement statements/*.pdf'], ['pds upload contract deal.pdf --extract royalties,splits --wait']],
  'upload contract': [['pds upload contract deal.pdf --extract royalties,splits,dates --wait'], ['cat deal.pdf | pds upload contract - --file-name deal.pdf']],
  'upload statement': [['pds upload statement statements/*.pdf --concurrency 4'], ['pds upload statement q1.pdf --wait --json']],
  'contracts status': [['pds contracts status 1001', 'the staging id an upload printed'], ['pds contracts status 1001 --watch']],
  'statements status': [['pds statements status 40001'], ['pds statements status 1001 --watch']],
  'contracts download': [['pds contracts download 20001'], ['pds contracts download --all -o contracts/']],
  'statements download': [['pds statements download 40001 -o -', 'to stdout'], ['pds statements download --all -o statements/']],
  sandbox: [
    ['pds sandbox info', "the workspace's guide (AGENTS.md)"],
    ["pds sandbox exec 'grep -ril royalt contracts/*/extracted | wc -l'"],
    ['pds sandbox shell'],
  ],
  'sandbox exec': [
    ["pds sandbox exec 'cat stats.yaml'"],
    ["pds sandbox exec 'cd contracts' 'ls'", 'each command starts at the workspace root again'],
    ["printf 'ls\\ncat stats.yaml\\n' | pds sandbox exec -"],
  ],
  'sandbox ls': [['pds sandbox ls'], ['pds sandbox ls contracts']],
  'sandbox cat': [['pds sandbox cat stats.yaml'], ['pds sandbox cat AGENTS.md | less']],
  'sandbox info': [['pds sandbox info']],
  'sandbox shell': [['pds sandbox shell', 'Ctrl-D or `exit` leaves']],
  'sandbox connect': [['pds sandbox connect', 'start the session now rather than on first use']],
  'sandbox disconnect': [['pds sandbox disconnect']],
  auth: [['echo "$TOKEN" | pds auth login --with-token'], ['pds auth status']],
  'auth login': [
    ['pds auth login', 'on a terminal: asks how'],
    ['echo "$TOKEN" | pds auth login --with-token --api-url https://pds.example.com'],
    ['pds --profile staging auth login --with-token < token.txt', 'a second profile'],
  ],
  'auth status': [['pds auth status'], ['pds auth status --json']],
  'auth token': [['curl -H "Authorization: Bearer $(pds auth token)" "$PDS_API_URL/v1/projects"']],
  'auth logout': [['pds auth logout'], ['pds --profile staging auth logout']],
  config: [['pds config list'], ['pds config set api-url https://pds.example.com']],
  'config list': [['pds config list'], ['pds --profile staging config list --json']],
  'config get': [['pds config get project']],
  'config set': [['pds config set api-url https://pds.example.com'], ['pds config set timeout 60']],
  'config unset': [['pds config unset timeout']],
  use: [['pds use "Northern Lights Catalog"'], [`pds use ${DEMO_PROJECT}`]],
  emulator: [['pds emulator start --quiet &']],
  'emulator start': [['pds emulator start --quiet &', 'on http://127.0.0.1:4010'], ['pds emulator start --port 0 --latency 200 --fail-rate 0.1', 'a slow, flaky service'], ['pds emulator start --drift', 'the drifted answers of a deployed service']],
  api: [
    ['pds api projects'],
    ['pds api \'contracts?projectId={project}&includes=dates\''],
    ['pds api statements -f projectId={project} --paginate --jq \'length\''],
  ],
  completion: [['pds completion bash > ~/.local/share/bash-completion/completions/pds'], ['pds completion zsh > "${fpath[1]}/_pds"'], ['pds completion fish > ~/.config/fish/completions/pds.fish']],
  help: [['pds help contracts ls'], ['pds help exit-codes']],
  mcp: [
    ['pds mcp config --client claude', "the snippet for the client's configuration"],
    ['pds mcp -p 5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7 --tools search,get_contract'],
    ['pds mcp --toolsets documents,search', 'contracts, statements and search only'],
  ],
  'mcp config': [['pds mcp config --client claude'], ['pds mcp config --client vscode --tools search,get_contract']],
  'mcp tools': [['pds mcp tools'], ['pds mcp tools --json --jq \'map(select(.writes)) | .[].tool\'', 'the tools that write']],
};

for (const [noun, id] of Object.entries(SEED_IDS)) {
  const ls: [string, string?][] = [[`pds ${noun} ls`], [`pds ${noun} ls --all --json > ${noun}.json`, 'every page']];
  if (noun === 'contracts') ls.push(['pds contracts ls --include royalties,splits', 'with a count per include']);
  if (noun === 'entities') ls.push(['pds entities ls --roles assignee --merged']);
  const get: [string, string?][] = [[`pds ${noun} get ${id}`], [`pds ${noun} get ${id} --fields id,name --json`]];
  if (noun === 'contracts') get[1] = ['pds contracts get 20001 --include dates,signatures'];
  if (noun === 'statements') get[1] = ['pds statements get 40001 --jq .processing_status'];
  EXAMPLES[noun] ??= [ls[0] as [string], get[0] as [string]];
  EXAMPLES[`${noun} ls`] = ls;
  EXAMPLES[`${noun} get`] = get;
}

const EXIT_CODES: [string, string][] = [
  ['0', 'success (a list with no results is still 0)'],
  ['1', 'failure not covered below: server error after retries, network, unexpected answer'],
  ['2', 'usage or invalid input: bad flag, bad id, unknown include or field, bad --jq expression, non-PDF, file too large, API 400'],
  ['3', 'not authenticated: no token, API 401, a sign-in that cannot be refreshed'],
  ['4', 'forbidden: API 403 (the token is not scoped to the project)'],
  ['5', 'not found: API 404'],
  ['6', 'rate limited, and the retries spent: API 429'],
  ['7', 'processing failed: an upload waited on reached "failed"'],
  ['130', 'interrupted (Ctrl-C)'],
];

/** Below this many columns for a description, commander would not wrap it at all (its default is 40). */
const MIN_WIDTH_TO_WRAP = 20;

/** A helper of commander's that wraps to `width` columns. */
function wrapper(width: number): Help {
  const help = new Help();
  help.helpWidth = width;
  help.minWidthToWrap = MIN_WIDTH_TO_WRAP;
  return help;
}

/** The exit-code table, wrapped to `width` columns. */
export function exitCodesText(width: number): string {
  const help = wrapper(width);
  const rows = EXIT_CODES.map(([code, meaning]) => help.formatItem(code, 3, meaning, help));
  const note = help.boxWrap('`pds sandbox exec` exits with the last non-zero exit code of the commands it ran (0 if all succeed).', width);
  return `Exit codes of pds (scripts may rely on them):\n\n${rows.join('\n')}\n\n${note}\n`;
}

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/**
 * A command's notes under its options, as `addHelpText('after', …)` takes them: paragraphs (split
 * by a blank line) wrapped to the width the help is printed in.
 */
export function helpNotes(text: string): (context: { command: Command }) => string {
  return ({ command }) => {
    const width = command.configureOutput().getOutHelpWidth?.() ?? 80;
    const help = wrapper(width);
    return `\n${text
      .trim()
      .split(/\n\s*\n/)
      .map((paragraph) => help.boxWrap(paragraph.replace(/\s*\n\s*/g, ' '), width))
      .join('\n\n')}`;
  };
}

/**
 * The examples, each note beside its line while that fits in `columns`, else on a line of its own
 * above it. An example line itself is never broken: it is meant to be copied.
 */
function examplesText(examples: [string, string?][], columns: number): string {
  const width = Math.max(...examples.map(([line]) => line.length));
  const lines = examples.map(([line, note]) => {
    if (!note) return `  ${line}`;
    const beside = `  ${line.padEnd(width)}  # ${note}`;
    return beside.length <= columns ? beside : `  # ${note}\n  ${line}`;
  });
  return `\nExamples:\n${lines.join('\n')}`;
}

/** Examples on every command that has none yet, and global options under their own heading. */
export function decorateHelp(program: Command, columns: () => number): void {
  program.configureHelp({ ...program.configureHelp(), minWidthToWrap: MIN_WIDTH_TO_WRAP });
  const visit = (command: Command): void => {
    const path = pathOf(command);
    const examples = EXAMPLES[path];
    if (examples) command.addHelpText('after', () => examplesText(examples, columns()));
    // Global options are the root program's (commander would add every ancestor's, e.g. `mcp`'s
    // own options on `mcp config`), without --version, which only the bare `pds` answers.
    if (command !== program) {
      command.configureHelp({
        minWidthToWrap: MIN_WIDTH_TO_WRAP,
        showGlobalOptions: true,
        visibleGlobalOptions: () => program.options.filter((option) => !option.hidden && option.long !== '--version'),
      });
    }
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
  program.addHelpText(
    'after',
    () =>
      `\n${wrapper(columns()).boxWrap(
        'Run `pds help <command...>` for a command\'s options and examples, `pds help exit-codes` for the exit codes; the README (README.md in the package) covers configuration, scripting and completion.',
        columns(),
      )}`,
  );
}

/** `pds help [command...]`: the same page as `<command> --help`; `exit-codes` prints the table. */
export function registerHelp(program: Command, write: (text: string) => void, columns: () => number): void {
  program
    .command('help')
    .description('show help for a command, or the exit codes (`pds help exit-codes`)')
    .argument('[command...]', 'a command, e.g. `contracts ls`; or exit-codes')
    .action((words: string[]) => {
      if (words[0] === 'exit-codes') {
        if (words.length > 1) throw new UsageError(`\`pds help exit-codes\` takes nothing more: '${words.slice(1).join(' ')}'`);
        write(exitCodesText(columns()));
        return;
      }
      let target = program;
      for (const word of words) {
        const next = target.commands.find((command) => command.name() === word || command.aliases().includes(word));
        if (!next) {
          // The commands its help page lists: not hidden helpers such as the completion scripts' own.
          const known = target
            .createHelp()
            .visibleCommands(target)
            .map((command) => command.name())
            .filter((name) => name !== 'help');
          throw new UsageError(`no help for '${words.join(' ')}': unknown command '${word}'`, {
            details: [`commands${target === program ? '' : ` of ${pathOf(target)}`}: ${known.join(', ')}${target === program ? ', exit-codes' : ''}`],
          });
        }
        target = next;
      }
      target.outputHelp();
    });
}
