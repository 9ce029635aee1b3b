// `pds completion bash|zsh|fish` prints a script; the script asks `pds __complete -- <words…>` for the The definitions: plain data, no code.
// candidates at each Tab, so one implementation (complete.ts) serves the three shells.
import { verb } from '../../lib/verbs/verb.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export const completion = verb({
  name: 'completion',
  description: 'print a shell completion script (see the README to install it)',
  args: [{ name: 'shell', help: SHELLS.join(', '), required: true, completion: SHELLS }],
  // It reads no profile: a shell's PDS_PROFILE must not break loading the script.
  allowsNewProfile: true,
  examples: [
    ['pds completion bash > ~/.local/share/bash-completion/completions/pds'],
    ['pds completion zsh > "${fpath[1]}/_pds"', undefined, 'zsh (the line is zsh syntax)'],
    ['pds completion fish > ~/.config/fish/completions/pds.fish'],
  ],
});

export const complete = verb({
  name: '__complete',
  hidden: true,
  description: 'candidates for the word being completed (used by the completion scripts)',
  args: [{ name: 'words', help: 'the words after `pds`, the last one being completed', variadic: true }],
  allowsNewProfile: true,
  allowUnknownOptions: true,
});
