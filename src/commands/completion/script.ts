// The completion scripts: each hands the words of the line to `pds __complete` and offers what it
// prints; with nothing printed, the shell completes file names (uploads, --input, --data).
import * as z from 'zod/mini';
import type { Context } from '../../lib/context.js';
import { UsageError } from '../../lib/errors.js';

export const Options = z.object({ args: z.tuple([z.string()]) });

const BASH = `# pds completion for bash.
# Load it in this shell:  source <(pds completion bash)
# For every new shell:    pds completion bash > ~/.local/share/bash-completion/completions/pds
_pds_complete() {
  local IFS=$'\\n' candidate
  local -a candidates
  candidates=($(pds __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  COMPREPLY=()
  for candidate in "\${candidates[@]}"; do
    # A project name may hold spaces: insert it quoted.
    COMPREPLY+=("$(printf '%q' "$candidate")")
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

export async function run(opts: z.infer<typeof Options>, ctx: Context): Promise<void> {
  const script = SCRIPTS[opts.args[0]];
  if (script === undefined) {
    throw new UsageError(`no completion for shell '${opts.args[0]}'`, { details: ['shells: bash, zsh, fish'] });
  }
  ctx.output.write(script);
}
