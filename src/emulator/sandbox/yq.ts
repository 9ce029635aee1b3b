// The sandbox's `yq`: just-bash's own yq (3.4.2), given what it lacks of mikefarah's yq, which
// agents and people expect. just-bash's yq reads only the first file it is given (`yq '.name'
// artists/*.yaml` printed one name of 100) and knows no `eval`/`eval-all` command (`yq ea …` took
// the expression for a file name): see docs/upstream/just-bash-yq.md. This command, registered
// over the library's (its `origCommand`), runs the library's yq once per file and joins the results
// as mikefarah's yq prints them (a `---` line between files' YAML, none with -N/--no-doc); for
// `ea`/`eval-all` it reads every document of every file, then evaluates the expression once over
// all of them. When the library is fixed (test/emulator/sandbox-yq.test.ts says so), this goes.
//
// Source text like the worker's (./worker.ts), which it is part of: the worker runs it as
// CommonJS. It defines `sandboxYq(defineCommand)`, which returns the command.
export const YQ_SOURCE = String.raw`
function sandboxYq(defineCommand) {
  const SUBCOMMANDS = { e: 'eval', eval: 'eval', ea: 'all', 'eval-all': 'all' };
  // Options that take the next argument as their value.
  const WITH_VALUE = new Set(['-p', '--input-format', '-o', '--output-format', '-I', '--indent']);
  // Options about reading the input: used when eval-all reads the files, not when it evaluates.
  const READING = new Set(['-p', '--input-format', '-f', '--front-matter', '--csv-header', '--no-csv-header']);
  const READING_PREFIXES = ['--input-format=', '--xml-attribute-prefix=', '--xml-content-name=', '--csv-delimiter='];

  /** The arguments as mikefarah's yq reads them: command, options, expression, files. */
  function parseArgs(args) {
    const call = { command: undefined, mode: 'eval', reading: [], writing: [], positional: [], noDoc: false, exitStatus: false, nullInput: false, frontMatter: false, outputFormat: 'yaml' };
    const option = (name, value) => {
      const reading = READING.has(name) || READING_PREFIXES.some((prefix) => name.startsWith(prefix));
      (reading ? call.reading : call.writing).push(...(value === undefined ? [name] : [name, value]));
      if (name === '-o' || name === '--output-format') call.outputFormat = value;
      if (name.startsWith('--output-format=')) call.outputFormat = name.slice(16);
    };
    const flag = (name) => {
      if (name === '-N' || name === '--no-doc') call.noDoc = true;
      else {
        if (name === '-e' || name === '--exit-status') call.exitStatus = true;
        if (name === '-n' || name === '--null-input') call.nullInput = true;
        if (name === '-f' || name === '--front-matter') call.frontMatter = true;
        option(name);
      }
    };
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      if (WITH_VALUE.has(arg)) option(arg, args[++i]);
      else if (arg.startsWith('--')) flag(arg);
      else if (arg === '-' || !arg.startsWith('-')) {
        if (call.positional.length === 0 && !call.command && Object.prototype.hasOwnProperty.call(SUBCOMMANDS, arg)) {
          // The command comes before the expression; options may come before it.
          call.command = arg;
          call.mode = SUBCOMMANDS[arg];
        } else call.positional.push(arg);
      } else {
        // One-letter flags as pflag reads them: -rc is -r -c; -o, -p and -I take the rest of the
        // argument (-ojson, -o=json) or the next one.
        for (let k = 1; k < arg.length; k++) {
          const name = '-' + arg[k];
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
  function stages(expression) {
    const parts = [];
    const open = [];
    let start = 0;
    for (let i = 0; i < expression.length; i++) {
      const c = expression[i];
      if (c === '"') {
        for (i++; i < expression.length && expression[i] !== '"'; i++) if (expression[i] === '\\') i++;
      } else if (c === '#') {
        while (i < expression.length && expression[i] !== '\n') i++;
      } else if (c === '(' || c === '[' || c === '{') open.push(c);
      else if (c === ')' || c === ']' || c === '}') open.pop();
      else if (c === ';' && open[open.length - 1] === 'def') open.pop();
      else if (/[A-Za-z_]/.test(c) && !/[A-Za-z0-9_$.]/.test(expression[i - 1] || '')) {
        const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(expression.slice(i))[0];
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
  function isCollect(stage) {
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
  function overAllDocuments(expression) {
    let stream = '.[]';
    for (const stage of stages(expression)) {
      if (!isCollect(stage)) stream = stream + ' | ' + (stage === '' ? '.' : stage);
      else if (stage.slice(1, -1).trim() === '') stream = '[]';
      else stream = '[' + stream + ' | ' + stage.slice(1, -1) + ']';
    }
    return stream;
  }

  const isYaml = (format) => format === 'yaml' || format === 'y';

  /** Each file on its own, the results joined as mikefarah's yq prints them. */
  async function eachFile(call, expression, files, ctx) {
    let stdout = '';
    let stderr = '';
    let falsy = 0;
    const separator = isYaml(call.outputFormat) && !call.noDoc ? '---\n' : '';
    for (const file of files) {
      const result = await ctx.origCommand([...call.reading, ...call.writing, expression, file]);
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
  async function allFiles(call, expression, files, ctx) {
    const documents = [];
    for (const file of files.length === 0 ? ['-'] : files) {
      const read = await ctx.origCommand([...call.reading, '-s', '-o', 'json', '-c', '.', file]);
      if (read.exitCode !== 0) return read;
      const value = read.stdout.trim() === '' ? [] : JSON.parse(read.stdout);
      // -s reads a file's documents as an array; front matter is one document.
      if (call.frontMatter || !Array.isArray(value)) documents.push(value);
      else documents.push(...value);
    }
    const args = ['-p', 'json', ...call.writing, ...(call.noDoc ? ['-N'] : []), overAllDocuments(expression)];
    const { stdout, stderr, exitCode } = await ctx.exec('yq', { cwd: ctx.cwd, stdin: JSON.stringify(documents), args });
    return { stdout, stderr, exitCode };
  }

  async function isFile(ctx, path) {
    try {
      return (await ctx.fs.stat(ctx.fs.resolvePath(ctx.cwd, path))).isFile;
    } catch {
      return false;
    }
  }

  return defineCommand('yq', async (args, ctx) => {
    if (typeof ctx.origCommand !== 'function') return { stdout: '', stderr: 'yq: the sandbox lost its yq\n', exitCode: 127 };
    const call = parseArgs(args);
    let [expression = '.', ...files] = call.positional;
    // One argument naming a file is the file, read with '.' (as mikefarah's yq takes it).
    if (call.positional.length === 1 && !call.nullInput && expression !== '-' && (await isFile(ctx, expression))) {
      files = [expression];
      expression = '.';
    }
    if (call.nullInput) return ctx.origCommand([...call.reading, ...call.writing, expression]);
    if (call.mode === 'all') return allFiles(call, expression, files, ctx);
    if (files.length <= 1) return ctx.origCommand([...call.reading, ...call.writing, expression, ...files]);
    return eachFile(call, expression, files, ctx);
  });
}
`;
