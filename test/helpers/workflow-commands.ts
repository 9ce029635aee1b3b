// What a GitHub Actions runner would read in pds's output as workflow commands: shared by the tests
// of the CI guard (src/lib/io.ts) through the built CLI.

/**
 * The lines of one stream that a GitHub runner would obey as workflow commands, read as its
 * ActionCommandManager reads them: lines end at LF, CR or CRLF; `::name …::data` after leading
 * white space, or `##[name …]data` anywhere in the line (any name counts here, registered or not);
 * after `::stop-commands::T` nothing is obeyed until the line `::T::` (or `##[T]`).
 */
export function obeyed(output: string): string[] {
  const commands: string[] = [];
  let stopped: string | undefined;
  for (const line of output.split(/\r\n|\r|\n/)) {
    const trimmed = line.trimStart();
    let name: string | undefined;
    let data = '';
    if (trimmed.startsWith('::') && trimmed.indexOf('::', 2) > 0) {
      const end = trimmed.indexOf('::', 2);
      name = trimmed.slice(2, end).split(' ')[0];
      data = trimmed.slice(end + 2);
    } else if (/##\[[^\]]*\]/.test(line)) {
      name = /##\[([^\] ]*)/.exec(line)?.[1];
    }
    if (name === undefined) continue;
    if (stopped !== undefined) {
      if (name.toLowerCase() === stopped.toLowerCase()) stopped = undefined;
      continue;
    }
    if (name === 'stop-commands') stopped = data;
    else commands.push(line);
  }
  return commands;
}

/** The output as a person reads it in the log: without the runner's stop and resume lines. */
export function unfenced(output: string): string {
  return output.replace(/^::stop-commands::([0-9a-f]{32})\n([\s\S]*?)::\1::\n/gm, '$2');
}
