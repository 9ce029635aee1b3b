// A missing feature is named, and so is a missing project, through the built CLI: which service
// lacks knowledge search, tags or the lines export (exit 5); -p suggestions. Uses the bundle:
// `npm run build` first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/server.js';
import { testEmulator } from '../helpers/emulator.js';
import { runPds, signedInEnv } from '../helpers/process.js';

describe('a missing feature is named, and so is a missing project', () => {
  let seed: Emulator;
  beforeAll(async () => {
    seed = await testEmulator({ flavor: 'seed' });
  });
  afterAll(() => seed?.close());
  const pds = (args: string[]) => runPds(args, { env: signedInEnv(seed.url) });

  it('knowledge search and tags ls against the seed service say which service lacks what (exit 5)', async () => {
    expect(await pds(['knowledge', 'search', 'royalty'])).toMatchObject({
      code: 5,
      stdout: '',
      stderr:
        `error: the service at ${seed.url} has no knowledge search (its answer was 404)\n` +
        '  the deployed service has it\n  the service said: not found\n',
    });
    expect(await pds(['tags', 'ls'])).toMatchObject({
      code: 5,
      stderr: expect.stringMatching(
        new RegExp(
          `^error: the service at ${seed.url} has no tags on contracts and statements \\(its answer was 404\\)\n`,
        ),
      ),
    });
  });

  it('statements lines of a completed statement on a service without the export says so', async () => {
    expect((await pds(['statements', 'status', '40001'])).stdout).toMatch(/^state\tcompleted$/m);
    expect(await pds(['statements', 'lines', '40001'])).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        `error: the service at ${seed.url} exports no statement lines\n` +
        '  statement 40001 came without the `detailed` export; the deployed service has it\n',
    });
  });

  it('-p suggests the project a name is part of; an unknown project uuid lists the reachable ones', async () => {
    expect(await pds(['artists', 'ls', '-p', 'Harbor'])).toMatchObject({
      code: 2,
      stderr:
        "error: no project named 'Harbor'\n  did you mean:\n    8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e  Harbor Sessions\n",
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const args of [
      ['knowledge', 'search', 'royalty'],
      ['tags', 'ls'],
    ]) {
      expect(await pds([...args, '-p', unknown])).toMatchObject({
        code: 5,
        stderr:
          `error: project ${unknown} not found\n  projects this token reaches:\n` +
          '    5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7  Northern Lights Catalog\n' +
          '    8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e  Harbor Sessions\n',
      });
    }
  });
});
