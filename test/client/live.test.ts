// Live lines on a terminal: what they write, measured against the screen's height.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCells } from '../../src/lib/output/cells.js';
import { LiveLines } from '../../src/commands/documents/live.js';

afterEach(() => vi.useRealTimers());

const line = (text: string) => `\r\u001b[2K${text}\n`;

describe('LiveLines', () => {
  it('on a 4-row screen keeps 3 lines live, lets settled ones scroll away once, counts the rest', async () => {
    const cells = await loadCells();
    vi.useFakeTimers();
    const out = new PassThrough();
    let written = '';
    out.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const take = () => {
      const text = written;
      written = '';
      return text;
    };
    const live = new LiveLines(out, { columns: 40, rows: 4 }, cells);
    // An id from the service with an escape sequence in it is shown, not obeyed.
    const ids = ['1', '2\u001b[2J', '3', '4', '5'];
    const lines = ids.map((id) => live.add('·', `contract ${id}  waiting`));
    await vi.advanceTimersByTimeAsync(100);
    expect(take()).toBe(
      `\u001b[?25l${line('· contract 1  waiting')}${line('· contract 2\\x1b[2J  waiting')}${line('  … 3 more')}`,
    );

    live.settle(lines[0] as number, '✓', 'contract 1  done');
    live.settle(lines[1] as number, '✓', 'contract 2\u001b[2J  done');
    await vi.advanceTimersByTimeAsync(100);
    // The two done lines leave the block for good; the three others now fit.
    expect(take()).toBe(
      `\u001b[3A${line('✓ contract 1  done')}${line('✓ contract 2\\x1b[2J  done')}${line('· contract 3  waiting')}${line('· contract 4  waiting')}${line('· contract 5  waiting')}`,
    );

    live.settle(lines[2] as number, '✓', 'contract 3  done');
    live.finish();
    expect(take()).toBe(
      `\u001b[3A${line('✓ contract 3  done')}${line('· contract 4  waiting')}${line('· contract 5  waiting')}\u001b[?25h`,
    );
  });

  it('a line that is not done stays in the block, however many wait below it', async () => {
    const cells = await loadCells();
    vi.useFakeTimers();
    const out = new PassThrough();
    let written = '';
    out.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const live = new LiveLines(out, { columns: 40, rows: 3 }, cells);
    for (const id of ['1', '2', '3', '4']) live.add('·', `contract ${id}`);
    live.settle(1, '✓', 'contract 2');
    await vi.advanceTimersByTimeAsync(100);
    expect(written).toBe(`\u001b[?25l${line('· contract 1')}${line('  … 3 more')}`);
  });
});
