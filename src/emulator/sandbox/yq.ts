// The sandbox's `yq`: just-bash's own yq (3.4.2), given what it lacks of mikefarah's yq, which
// agents and people expect. just-bash's yq reads only the first file it is given (`yq '.name'
// artists/*.yaml` printed one name of 100) and knows no `eval`/`eval-all` command (`yq ea …` took
// the expression for a file name): see docs/upstream/just-bash-yq.md. This command, registered
// over the library's (its `origCommand`), runs the library's yq once per file and joins the results
// as mikefarah's yq prints them (a `---` line between files' YAML, none with -N/--no-doc); for
// `ea`/`eval-all` it reads every document of every file, then evaluates the expression once over
// all of them. When the library is fixed (test/emulator/sandbox-yq.test.ts says so), this goes.
//
// The worker (./worker.ts) runs as source text in a thread of its own, so these functions go there
// as their text (`yqSource`): each uses nothing from outside itself but its arguments, and reaches
// the others through the `yq` object it is given, so whatever names a bundler gives them, the text
// runs the same.

/** What a command of just-bash answers. */
export interface YqResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The part of just-bash's command context the command uses. */
export interface YqContext {
  cwd: string;
  /** The library's own yq, which this command is registered over. */
  origCommand?: (args: string[]) => Promise<YqResult>;
  exec(command: string, options: { cwd: string; stdin: string; args: string[] }): Promise<YqResult>;
  fs: { stat(path: string): Promise<{ isFile: boolean }>; resolvePath(cwd: string, path: string): string };
}

/** A yq command line as mikefarah's yq reads it. */
export interface YqCall {
  command: string | undefined;
  mode: 'eval' | 'all';
  /** Options about reading the input: used when eval-all reads the files, not when it evaluates. */
  reading: string[];
  writing: string[];
  positional: string[];
  noDoc: boolean;
  exitStatus: boolean;
  nullInput: boolean;
  frontMatter: boolean;
  outputFormat: string;
}

/** The arguments as mikefarah's yq reads them: command, options, expression, files. */
function parseArgs(args: readonly string[]): YqCall {
  const SUBCOMMANDS: Record<string, 'eval' | 'all'> = { e: 'eval', eval: 'eval', ea: 'all', 'eval-all': 'all' };
  // Options that take the next argument as their value.
  const WITH_VALUE = new Set(['-p', '--input-format', '-o', '--output-format', '-I', '--indent']);
  const READING = new Set(['-p', '--input-format', '-f', '--front-matter', '--csv-header', '--no-csv-header']);
  const READING_PREFIXES = ['--input-format=', '--xml-attribute-prefix=', '--xml-content-name=', '--csv-delimiter='];
  const call: YqCall = {
    command: undefined,
    mode: 'eval',
    reading: [],
    writing: [],
    positional: [],
    noDoc: false,
    exitStatus: false,
    nullInput: false,
    frontMatter: false,
    outputFormat: 'yaml',
  };
  const option = (name: string, value?: string) => {
    const reading = READING.has(name) || READING_PREFIXES.some((prefix) => name.startsWith(prefix));
    (reading ? call.reading : call.writing).push(...(value === undefined ? [name] : [name, value]));
    if ((name === '-o' || name === '--output-format') && value !== undefined) call.outputFormat = value;
    if (name.startsWith('--output-format=')) call.outputFormat = name.slice(16);
  };
  const flag = (name: string) => {
    if (name === '-N' || name === '--no-doc') call.noDoc = true;
    else {
      if (name === '-e' || name === '--exit-status') call.exitStatus = true;
      if (name === '-n' || name === '--null-input') call.nullInput = true;
      if (name === '-f' || name === '--front-matter') call.frontMatter = true;
      option(name);
    }
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (WITH_VALUE.has(arg)) option(arg, args[++i]);
    else if (arg.startsWith('--')) flag(arg);
    else if (arg === '-' || !arg.startsWith('-')) {
      const command = SUBCOMMANDS[arg];
      if (call.positional.length === 0 && !call.command && Object.hasOwn(SUBCOMMANDS, arg) && command) {
        // The command comes before the expression; options may come before it.
        call.command = arg;
        call.mode = command;
      } else call.positional.push(arg);
    } else {
      // One-letter flags as pflag reads them: -rc is -r -c; -o, -p and -I take the rest of the
      // argument (-ojson, -o=json) or the next one.
      for (let k = 1; k < arg.length; k++) {
        const name = `-${arg[k]}`;
        if (!WITH_VALUE.has(name)) {
          flag(name);
          continue;
        }
        const rest = arg.slice(k + 1).replace(/^=/, '');
        option(name, rest !== '' ? rest : args[++i]);
        break;
      }
    }
  }
  return call;
}

/** The expression's stages: split at the pipes outside brackets, strings, if…end and def…;. */
function stages(expression: string): string[] {
  const parts: string[] = [];
  const open: string[] = [];
  let start = 0;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i] as string;
    if (c === '"') {
      for (i++; i < expression.length && expression[i] !== '"'; i++) if (expression[i] === '\\') i++;
    } else if (c === '#') {
      while (i < expression.length && expression[i] !== '\n') i++;
    } else if (c === '(' || c === '[' || c === '{') open.push(c);
    else if (c === ')' || c === ']' || c === '}') open.pop();
    else if (c === ';' && open[open.length - 1] === 'def') open.pop();
    else if (/[A-Za-z_]/.test(c) && !/[A-Za-z0-9_$.]/.test(expression[i - 1] || '')) {
      const word = (/^[A-Za-z_][A-Za-z0-9_]*/.exec(expression.slice(i)) as RegExpExecArray)[0];
      if (word === 'if' || word === 'def') open.push(word);
      else if (word === 'end' && open[open.length - 1] === 'if') open.pop();
      i += word.length - 1;
    } else if (c === '|' && open.length === 0 && expression[i + 1] !== '=') {
      parts.push(expression.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(expression.slice(start));
  return parts.map((part) => part.trim());
}

/** Whether a stage is one collect, [ … ]: the bracket it starts with closes at its end. */
function isCollect(stage: string): boolean {
  if (!stage.startsWith('[')) return false;
  let depth = 0;
  for (let i = 0; i < stage.length; i++) {
    const c = stage[i];
    if (c === '"') {
      for (i++; i < stage.length && stage[i] !== '"'; i++) if (stage[i] === '\\') i++;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && --depth === 0) return i === stage.length - 1;
  }
  return false;
}

/**
 * An eval-all expression as one jq-style expression over the array of all documents. In yq, the
 * documents are the expression's context together: a stage maps over each of them, except a
 * collect ([ … ]), which gathers what its inside gives for all of them into one array.
 */
function overAllDocuments(expression: string, yq: YqParts): string {
  let stream = '.[]';
  for (const stage of yq.stages(expression)) {
    if (!yq.isCollect(stage)) stream = `${stream} | ${stage === '' ? '.' : stage}`;
    else if (stage.slice(1, -1).trim() === '') stream = '[]';
    else stream = `[${stream} | ${stage.slice(1, -1)}]`;
  }
  return stream;
}

/** Each file on its own, the results joined as mikefarah's yq prints them. */
async function eachFile(call: YqCall, expression: string, files: string[], ctx: YqContext): Promise<YqResult> {
  let stdout = '';
  let stderr = '';
  let falsy = 0;
  const yaml = call.outputFormat === 'yaml' || call.outputFormat === 'y';
  const separator = yaml && !call.noDoc ? '---\n' : '';
  for (const file of files) {
    const result = await (ctx.origCommand as NonNullable<YqContext['origCommand']>)([
      ...call.reading,
      ...call.writing,
      expression,
      file,
    ]);
    // -e: 1 with nothing on stderr is a false or empty result, not a failure.
    const isFalsy = call.exitStatus && result.exitCode === 1 && result.stderr === '';
    if (result.exitCode !== 0 && !isFalsy) return { stdout, stderr: stderr + result.stderr, exitCode: result.exitCode };
    if (isFalsy) falsy++;
    if (result.stdout !== '') stdout += (stdout === '' ? '' : separator) + result.stdout;
    stderr += result.stderr;
  }
  return { stdout, stderr, exitCode: falsy === files.length ? 1 : 0 };
}

/** Every document of every file (stdin without files), then the expression over all at once. */
async function allFiles(
  call: YqCall,
  expression: string,
  files: string[],
  ctx: YqContext,
  yq: YqParts,
): Promise<YqResult> {
  const documents: unknown[] = [];
  for (const file of files.length === 0 ? ['-'] : files) {
    const read = await (ctx.origCommand as NonNullable<YqContext['origCommand']>)([
      ...call.reading,
      '-s',
      '-o',
      'json',
      '-c',
      '.',
      file,
    ]);
    if (read.exitCode !== 0) return read;
    const value: unknown = read.stdout.trim() === '' ? [] : JSON.parse(read.stdout);
    // -s reads a file's documents as an array; front matter is one document.
    if (call.frontMatter || !Array.isArray(value)) documents.push(value);
    else documents.push(...value);
  }
  const args = ['-p', 'json', ...call.writing, ...(call.noDoc ? ['-N'] : []), yq.overAllDocuments(expression, yq)];
  const { stdout, stderr, exitCode } = await ctx.exec('yq', { cwd: ctx.cwd, stdin: JSON.stringify(documents), args });
  return { stdout, stderr, exitCode };
}

/** The command: one file or none goes to the library's yq as it is; several, or eval-all, as above. */
async function runYq(args: string[], ctx: YqContext, yq: YqParts): Promise<YqResult> {
  const original = ctx.origCommand;
  if (typeof original !== 'function') return { stdout: '', stderr: 'yq: the sandbox lost its yq\n', exitCode: 127 };
  const call = yq.parseArgs(args);
  let [expression = '.', ...files] = call.positional;
  const isFile = async (path: string) => {
    try {
      return (await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, path))).isFile;
    } catch {
      return false;
    }
  };
  // One argument naming a file is the file, read with '.' (as mikefarah's yq takes it).
  if (call.positional.length === 1 && !call.nullInput && expression !== '-' && (await isFile(expression))) {
    files = [expression];
    expression = '.';
  }
  if (call.nullInput) return original([...call.reading, ...call.writing, expression]);
  if (call.mode === 'all') return yq.allFiles(call, expression, files, ctx, yq);
  if (files.length <= 1) return original([...call.reading, ...call.writing, expression, ...files]);
  return yq.eachFile(call, expression, files, ctx);
}

/** The functions of the command, each reaching the others through this object. */
export const YQ_PARTS = { parseArgs, stages, isCollect, overAllDocuments, eachFile, allFiles, runYq };
export type YqParts = typeof YQ_PARTS;

/** The worker's text of the parts: `const yq = { parseArgs: function …, … };`. */
export function yqSource(): string {
  const parts = Object.entries(YQ_PARTS).map(([name, part]) => `  ${name}: ${part.toString()}`);
  return `const yq = {\n${parts.join(',\n')}\n};\n`;
}
