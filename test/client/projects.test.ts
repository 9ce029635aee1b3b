import { describe, expect, it } from 'vitest';
import { sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

const SECOND_PROJECT = '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e';
const ORG = '0b7e9a52-3c1d-4f5e-9a8b-1c2d3e4f5a6b';
const NO_COLOR = { NO_COLOR: '1' };

const emulator = sharedEmulator({ flavor: 'current' });

describe('pds projects ls', () => {
  it('prints TSV with a header when piped', async () => {
    const result = await runCli(emulator, ['projects', 'ls']);
    expect(result).toEqual({
      code: 0,
      stdout:
        'ID\tNAME\tCREATED\n' +
        `${DEMO_PROJECT}\tNorthern Lights Catalog\t2022-11-08T09:30:00.000Z\n` +
        `${SECOND_PROJECT}\tHarbor Sessions\t2024-05-20T14:05:00.000Z\n`,
      stderr: '',
    });
    expect(emulator.requests.map((r) => [r.method, r.path, r.query, r.headers.authorization, r.status])).toEqual([
      ['GET', '/v1/projects', {}, 'Bearer demo-org-token', 200],
    ]);
    expect(emulator.requests[0]!.headers['user-agent']).toMatch(/^pds\/\d+\.\d+\.\d+/);
  });

  it('prints a table with readable dates on a TTY, the current project marked, the count on stderr', async () => {
    const result = await runCli(emulator, ['projects', 'ls'], { tty: true, env: NO_COLOR });
    expect(result).toEqual({
      code: 0,
      stdout:
        '   ID                                    NAME                     CREATED\n' +
        `*  ${DEMO_PROJECT}  Northern Lights Catalog  2022-11-08 09:30\n` +
        `   ${SECOND_PROJECT}  Harbor Sessions          2024-05-20 14:05\n`,
      stderr: '2 projects\n',
    });
  });

  it('prints a JSON array with --json, on a TTY too', async () => {
    const expected = [
      {
        id: DEMO_PROJECT,
        name: 'Northern Lights Catalog',
        created_at: '2022-11-08T09:30:00.000Z',
        organization_id: ORG,
      },
      { id: SECOND_PROJECT, name: 'Harbor Sessions', created_at: '2024-05-20T14:05:00.000Z', organization_id: ORG },
    ];
    for (const tty of [false, true]) {
      const result = await runCli(emulator, ['projects', 'ls', '--json'], { tty });
      expect(result).toEqual({ code: 0, stdout: `${JSON.stringify(expected, null, 2)}\n`, stderr: '' });
    }
  });

  it('prints ids with -q', async () => {
    expect(await runCli(emulator, ['projects', 'ls', '-q'], { tty: true })).toEqual({
      code: 0,
      stdout: `${DEMO_PROJECT}\n${SECOND_PROJECT}\n`,
      stderr: '',
    });
  });

  it('shows only the one project of a project-scoped token', async () => {
    const result = await runCli(emulator, ['projects', 'ls', '-q'], { token: 'demo-project-token' });
    expect(result.stdout).toBe(`${DEMO_PROJECT}\n`);
  });

  it('needs no project', async () => {
    expect((await runCli(emulator, ['projects', 'ls', '-q'], { project: null })).code).toBe(0);
  });
});

describe('pds projects get', () => {
  it('prints the current project as key<TAB>value when piped', async () => {
    const result = await runCli(emulator, ['projects', 'get']);
    expect(result).toEqual({
      code: 0,
      stdout: `id\t${DEMO_PROJECT}\nname\tNorthern Lights Catalog\ncreated_at\t2022-11-08T09:30:00.000Z\norganization_id\t${ORG}\n`,
      stderr: '',
    });
    expect(emulator.requests.map((r) => r.path)).toEqual([`/v1/projects/${DEMO_PROJECT}`]);
  });

  it('aligns fields on a TTY', async () => {
    const result = await runCli(emulator, ['projects', 'get', SECOND_PROJECT], { tty: true, env: NO_COLOR });
    expect(result).toEqual({
      code: 0,
      stdout:
        `id               ${SECOND_PROJECT}\n` +
        'name             Harbor Sessions\n' +
        'created_at       2024-05-20 14:05\n' +
        `organization_id  ${ORG}\n`,
      stderr: '',
    });
  });

  it('prints the record with --json, and the id with -q', async () => {
    const json = await runCli(emulator, ['projects', 'get', SECOND_PROJECT, '--json']);
    expect(json).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ id: SECOND_PROJECT, name: 'Harbor Sessions', created_at: '2024-05-20T14:05:00.000Z', organization_id: ORG }, null, 2)}\n`,
      stderr: '',
    });
    expect((await runCli(emulator, ['projects', 'view', '-q'])).stdout).toBe(`${DEMO_PROJECT}\n`);
  });

  it('exits 2 with a hint when there is no project, with no request', async () => {
    const result = await runCli(emulator, ['projects', 'get'], { project: null });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: no project selected\n  pass -p <project-id>, set PDS_PROJECT, or run `pds use <project>`\n',
    });
    expect(emulator.requests).toEqual([]);
  });

  it('exits 2 for an id that is not a UUID, with no request', async () => {
    const result = await runCli(emulator, ['projects', 'get', 'northern-lights']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: invalid project id 'northern-lights': expected a UUID like 5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7\n",
    });
    expect(emulator.requests).toEqual([]);
  });

  it('exits 5 for a project outside the organization', async () => {
    const result = await runCli(emulator, ['projects', 'get', 'c3e5a7b9-4d6f-4e8a-9b1c-2d3e4f5a6b7c']);
    expect(result).toEqual({ code: 5, stdout: '', stderr: 'error: project not found\n' });
  });

  it('exits 4 for a project the token is not scoped to', async () => {
    const result = await runCli(emulator, ['projects', 'get', SECOND_PROJECT], { token: 'demo-project-token' });
    expect(result).toEqual({ code: 4, stdout: '', stderr: 'error: token does not have access to this project\n' });
  });
});
