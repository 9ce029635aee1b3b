// The completion scripts: each hands the words of the line to `pds __complete` and offers what it
// prints; with nothing printed, the shell completes file names (uploads, --input, --data).
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';
import type { completion } from './definitions.js';
import type { OptionsOf } from '../../lib/verbs/verb.js';

type Options = OptionsOf<typeof completion>;

const BASH = `# pds completion for bash.
# Load it in this shell:  source <(pds completion bash)
# For every new shell:    pds completion bash > ~/.local/share/bash-completion/completions/pds
_pds_complete() {
  local IFS=$'\\n' line=\${COMP_LINE:0:COMP_POINT} word candidate cur prefix i
  local -a words=() candidates
  # bash splits a word at the characters of COMP_WORDBREAKS (--include=roy is three words, a URL
  # three too): pieces with no blank between them are one word again for pds.
  for ((i = 0; i <= COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if ((i > 0)) && [[ $line != [[:blank:]]* ]]; then
      words[\${#words[@]}-1]+=$word
    else
      words+=("$word")
    fi
    line=\${line#"\${line%%[![:blank:]]*}"}
    line=\${line#"$word"}
  done
  cur=\${words[\${#words[@]}-1]}
  # The shell replaces only what follows the last '=' or ':' of the word: that part is offered.
  prefix=\${cur%"\${cur##*[=:]}"}
  # One candidate a line, read as it is: an unquoted $(…) would also expand * or ? in a candidate
  # (a project named 'Mix *') against the files of the current directory.
  candidates=()
  while IFS= read -r candidate; do candidates+=("$candidate"); done < <(pds __complete -- "\${words[@]:1}" 2>/dev/null)
  COMPREPLY=()
  for candidate in "\${candidates[@]}"; do
    candidate=\${candidate#"$prefix"}
    # A project name may hold spaces: insert it quoted; a list (a,b) or a path as it is.
    if [[ $candidate == *[!A-Za-z0-9_.,:=/{}?@+-]* ]]; then candidate=$(printf '%q' "$candidate"); fi
    COMPREPLY+=("$candidate")
  done
}
complete -o bashdefault -o default -F _pds_complete pds
`;

const ZSH = `#compdef pds
# pds completion for zsh.
# Load it in this shell:  source <(pds completion zsh)   (after compinit)
# For every new shell:    pds completion zsh > "\${fpath[1]}/_pds"
_pds() {
  local -a candidates
  candidates=("\${(@f)$(pds __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  candidates=("\${(@)candidates:#}")
  if (( \${#candidates} )); then
    compadd -- "\${candidates[@]}"
  else
    _files
  fi
}
if [[ "\${funcstack[1]}" == "_pds" ]]; then
  _pds "$@"
else
  compdef _pds pds
fi
`;

const FISH = `# pds completion for fish.
# Load it in this shell:  pds completion fish | source
# For every new shell:    pds completion fish > ~/.config/fish/completions/pds.fish
function __pds_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l candidates (pds __complete -- $words[2..-1] 2>/dev/null)
    if test (count $candidates) -eq 0
        __fish_complete_path (commandline -ct)
    else
        printf '%s\\n' $candidates
    end
end
complete -c pds -f -a '(__pds_complete)'
`;

const SCRIPTS: Record<string, string> = { bash: BASH, zsh: ZSH, fish: FISH };

export async function run(opts: Options, ctx: Context): Promise<void> {
  const script = SCRIPTS[opts.args[0]];
  if (script === undefined) {
    throw new UsageError(`no completion for shell '${opts.args[0]}'`, { details: ['shells: bash, zsh, fish'] });
  }
  ctx.output.write(script);
}
