// The log of the action's upload step for 200 files, as the runner shows it: at most 30 lines
// outside `::group::`s, the summary line and the errors in view.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEMO_PROJECT } from '../helpers/cli.js';
import { sharedEmulator } from '../helpers/emulator.js';
import { actionStepEnv, job, ROOT, readAction, statementFolder } from '../helpers/runner.js';

const emulator = sharedEmulator({ flavor: 'current' });
const ACTION = join(ROOT, 'action');

/** The lines a person sees without opening a group: those outside every `::group::`…`::endgroup::`. */
function outsideGroups(log: string): string[] {
  const lines: string[] = [];
  let depth = 0;
  for (const line of log.split('\n')) {
    if (line.startsWith('::group::')) depth++;
    else if (line.startsWith('::endgroup::')) depth = Math.max(0, depth - 1);
    else if (depth === 0 && line !== '') lines.push(line);
  }
  return lines;
}

it.each([
  ['false', 'without waiting'],
  ['true', 'waiting for processing'],
])(
  '200 files (wait: %s, %s): at most 30 lines outside groups, the counts among them',
  async (wait) => {
    const runner = job();
    const dir = statementFolder(runner, `log-${wait}`, 200);
    const upload = readAction(ACTION).runs.steps.find((s) => s.id === 'upload')?.run ?? '';
    const env = actionStepEnv(ACTION, 'upload', {
      files: dir,
      project: DEMO_PROJECT,
      token: 'demo-org-token',
      'api-url': emulator.url,
      'skip-existing': 'false',
      concurrency: '8',
      wait,
      args: '--interval 200ms',
    });
    const end = await runner.run(upload, env);
    expect(end.code, end.stderr).toBe(0);
    // The runner shows both streams in one log.
    const visible = [...outsideGroups(end.stdout), ...outsideGroups(end.stderr)];
    expect(visible.length, visible.join('\n')).toBeLessThanOrEqual(30);
    expect(visible).toContainEqual(expect.stringMatching(/^200 uploaded, 0 skipped, 0 failed/));
    expect(runner.outputs()).toMatchObject({ uploaded: '200', failed: '0' });
  },
  120_000,
);
