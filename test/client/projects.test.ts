import { beforeAll, describe, expect, it } from 'vitest';
import { OTHER_PROJECT_ID, SECOND_PROJECT_ID } from '../../src/emulator/seed.js';
import { answerOf, sharedEmulator } from '../helpers/emulator.js';
import { DEMO_PROJECT, runCli } from '../helpers/cli.js';

const SECOND_PROJECT = SECOND_PROJECT_ID;
const NO_COLOR = { NO_COLOR: '1' };

const emulator = sharedEmulator({ flavor: 'current' });

interface Project {
  id: string;
  name: string;
  created_at: string;
}
/** The projects the emulator answers the organization's token, in its order (read before the tests). */
let projects: Project[];
beforeAll(async () => {
  projects = await answerOf<Project[]>(emulator, '/v1/projects');
});
const project = (id: string): Record<string, string> => {
  const found = projects.find((p) => p.id === id);
  if (!found) throw new Error(`the emulator has no project ${id}`);
  return found as unknown as Record<string, string>;
};
/** A timestamp as a table shows it: date and minutes, UTC. */
const minutes = (at: string) => at.slice(0, 16).replace('T', ' ');

describe('pds projects ls', () => {
  it('prints TSV with a header when piped', async () => {
    const result = await runCli(emulator, ['projects', 'ls']);
    expect(projects.map((p) => p.id)).toEqual([DEMO_PROJECT, SECOND_PROJECT]);
    expect(result).toEqual({
      code: 0,
      stdout: `ID\tNAME\tCREATED\n${projects.map((p) => `${p.id}\t${p.name}\t${p.created_at}\n`).join('')}`,
      stderr: '',
    });
    expect(emulator.requests.map((r) => [r.method, r.path, r.query, r.headers.authorization, r.status])).toEqual([
      ['GET', '/v1/projects', {}, 'Bearer demo-org-token', 200],
    ]);
    expect(emulator.requests[0]!.headers['user-agent']).toMatch(/^pds\/\d+\.\d+\.\d+/);
  });

  it('prints a table with readable dates on a TTY, the current project marked, the count on stderr', async () => {
    const result = await runCli(emulator, ['projects', 'ls'], { tty: true, env: NO_COLOR });
    // The current project marked in a first column; columns two spaces apart.
    const name = Math.max('NAME'.length, ...projects.map((p) => p.name.length)) + 2;
    const row = (mark: string, id: string, title: string, created: string) =>
      `${mark.padEnd(3)}${id.padEnd(DEMO_PROJECT.length + 2)}${title.padEnd(name)}${created}\n`;
    expect(result).toEqual({
      code: 0,
      stdout:
        row('', 'ID', 'NAME', 'CREATED') +
        projects.map((p) => row(p.id === DEMO_PROJECT ? '*' : '', p.id, p.name, minutes(p.created_at))).join(''),
      stderr: `${projects.length} projects\n`,
    });
  });

  it('prints a JSON array with --json, on a TTY too', async () => {
    const expected = projects;
    for (const tty of [false, true]) {
      const result = await runCli(emulator, ['projects', 'ls', '--json'], { tty });
      expect(result).toEqual({ code: 0, stdout: `${JSON.stringify(expected, null, 2)}\n`, stderr: '' });
    }
  });

  it('prints ids with -q', async () => {
    expect(await runCli(emulator, ['projects', 'ls', '-q'], { tty: true })).toEqual({
      code: 0,
      stdout: projects.map((p) => `${p.id}\n`).join(''),
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
      stdout: Object.entries(project(DEMO_PROJECT))
        .map(([field, value]) => `${field}\t${value}\n`)
        .join(''),
      stderr: '',
    });
    expect(emulator.requests.map((r) => r.path)).toEqual([`/v1/projects/${DEMO_PROJECT}`]);
  });

  it('aligns fields on a TTY', async () => {
    const result = await runCli(emulator, ['projects', 'get', SECOND_PROJECT], { tty: true, env: NO_COLOR });
    // Labels in words, padded to the longest, two spaces; the date to the minute; the organization
    // it belongs to is plumbing, shown with --verbose.
    const { id, name, created_at: created, organization_id: organization } = project(SECOND_PROJECT);
    expect(result).toEqual({
      code: 0,
      stdout: `ID       ${id}\nName     ${name}\nCreated  ${minutes(created as string)}\n`,
      stderr: '',
    });
    const verbose = await runCli(emulator, ['projects', 'get', SECOND_PROJECT, '--verbose'], {
      tty: true,
      env: NO_COLOR,
    });
    expect(verbose.stdout).toContain(`\n\nInternal\nOrganization ID  ${organization}\n`);
  });

  it('prints the record with --json, and the id with -q', async () => {
    const json = await runCli(emulator, ['projects', 'get', SECOND_PROJECT, '--json']);
    expect(json).toEqual({
      code: 0,
      stdout: `${JSON.stringify(project(SECOND_PROJECT), null, 2)}\n`,
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
    const result = await runCli(emulator, ['projects', 'get', OTHER_PROJECT_ID]);
    expect(result).toEqual({ code: 5, stdout: '', stderr: 'error: project not found\n' });
  });

  it('exits 4 for a project the token is not scoped to', async () => {
    const result = await runCli(emulator, ['projects', 'get', SECOND_PROJECT], { token: 'demo-project-token' });
    expect(result).toEqual({ code: 4, stdout: '', stderr: 'error: token does not have access to this project\n' });
  });
});
