// `pds sandbox shell` under a real pseudo-terminal: Tab completes workspace paths, Up recalls the
// last line, clear clears the screen.
import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { ptyPds, signedInEnv } from '../helpers/process.js';

const emulator = sharedEmulator({ flavor: 'current' });

describe('sandbox shell', () => {
  it('Tab completes workspace paths, Up recalls the last line, clear clears the screen', async () => {
    const term = await ptyPds(['sandbox', 'shell'], { env: { ...signedInEnv(emulator.url), NO_COLOR: '1' } });
    await term.waitFor('$ ');
    // `AGE` + Tab: the only root entry that starts so.
    term.write('cat AGE\t');
    // (The intro line names `cat AGENTS.md` too: the completed line is the one after the prompt.)
    await term.waitFor(/Catalog:\/\$ [^]*cat AGENTS\.md/);
    term.write('\r');
    await term.waitFor('# Project workspace: Northern Lights Catalog');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Up brings the line back (shown after the prompt), Ctrl-C drops it unrun.
    const shown = term.raw().length;
    term.write('\u001b[A');
    await term.waitFor(/cat AGENTS\.md[^]*# Project workspace[^]*cat AGENTS\.md/);
    expect(term.raw().slice(shown)).toContain('cat AGENTS.md');
    term.write('\u0003');
    term.write('clear\r');
    // Home, then clear to the end of the screen.
    await term.waitFor('\u001b[1;1H\u001b[0J');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const screen = await term.screen();
    // Cleared: only the prompt is left, at the top.
    expect(screen).toHaveLength(1);
    expect(screen[0]).toMatch(/^pds:Northern Lights Catalog:\/\$ ?$/);
    term.write('exit\r');
    expect((await term.exited).code).toBe(0);
  });
});
