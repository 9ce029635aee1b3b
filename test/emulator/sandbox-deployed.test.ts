// The sandbox of the deployed flavor writes the ids that flavor's API answers to: numbers, in file
// and directory names, in each record's file and in its references to other records. An agent that
// reads an id in the sandbox and asks the API for it finds the record; the store's string id is a 404.
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import type { ProjectData } from '../../src/emulator/store.js';
import { call } from '../helpers/emulator.js';
import { demoSandbox } from '../helpers/sandbox.js';

const sandbox = demoSandbox({ flavor: 'deployed' });
const data = (): ProjectData => sandbox.emulator().state.data[DEMO_PROJECT_ID] as ProjectData;
const lines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/** What the files endpoint answers for a path of the workspace. */
async function entry(
  path: string,
): Promise<{ type: 'directory'; entries: string[] } | { type: 'file'; content: string }> {
  const response = await call(
    sandbox.emulator(),
    `/v1/projects/${DEMO_PROJECT_ID}/sandbox/files?path=${encodeURIComponent(path)}`,
  );
  expect(response.status, path).toBe(200);
  return ((await response.json()) as { data: never }).data;
}

async function entries(path: string): Promise<string[]> {
  const found = await entry(path);
  if (found.type !== 'directory') throw new Error(`${path} is not a directory`);
  return found.entries;
}

async function yamlFile(path: string): Promise<any> {
  const found = await entry(path);
  if (found.type !== 'file') throw new Error(`${path} is not a file`);
  return parseYaml(found.content);
}

/** The API's answer for a record: its status, and its name when found. */
async function apiRecord(resource: string, id: string | number): Promise<{ status: number; name?: unknown }> {
  const response = await call(sandbox.emulator(), `/v1/${resource}/${id}?projectId=${DEMO_PROJECT_ID}`);
  const body = (await response.json()) as { data?: { name?: unknown } };
  return { status: response.status, ...(response.status === 200 && { name: body.data?.name }) };
}

/** The number in a file or directory name (`artist_3000001.yaml`, `entity_1000001/`). */
const idInName = (name: string, prefix: string): number => {
  const match = new RegExp(`^${prefix}_(\\d+)(?:\\.yaml|/)$`).exec(name);
  expect(match, name).not.toBeNull();
  return Number(match?.[1]);
};

describe('the deployed sandbox names records by the ids the API answers to', () => {
  it('an artist: the number in its file name and inside it is found by GET /v1/artists/{id}; the store id is not', async () => {
    const names = await entries('artists');
    expect(names.length).toBe(data().artists.filter((a) => a.merged_into === undefined).length);
    for (const name of names) idInName(name, 'artist');
    const artist = await yamlFile(`artists/${names[0]}`);
    expect(artist.id).toBe(idInName(names[0] as string, 'artist'));
    expect(await apiRecord('artists', artist.id)).toEqual({ status: 200, name: artist.name });
    const stored = data().artists.find((a) => a.name === artist.name && a.merged_into === undefined);
    expect(stored?.id).toMatch(/^art_\d+$/);
    expect((await apiRecord('artists', stored?.id as string)).status).toBe(404);
  });

  it("an entity: its directory's number and metadata.yaml's id are found by GET /v1/entities/{id}; its references too", async () => {
    const names = await entries('entities');
    for (const name of names) idInName(name, 'entity');
    const entity = await yamlFile(`entities/${names[0]}metadata.yaml`);
    expect(entity.id).toBe(idInName(names[0] as string, 'entity'));
    expect(await apiRecord('entities', entity.id)).toEqual({ status: 200, name: entity.name });
    const stored = data().entities.find((e) => e.name === entity.name && e.merged_into === undefined);
    expect(stored?.id).toMatch(/^ent_\d+$/);
    expect((await apiRecord('entities', stored?.id as string)).status).toBe(404);
    // The contracts it is party to, by the number GET /v1/contracts/{id} finds.
    expect(entity.contracts.length).toBeGreaterThan(0);
    for (const contract of entity.contracts)
      expect((await apiRecord('contracts', contract.contract_id)).status).toBe(200);
  });

  it("a contract's uploaded.yaml: its id and every party's entity_id are found by the API", async () => {
    const names = await entries('contracts');
    const contract = await yamlFile(`contracts/${names[0]}uploaded.yaml`);
    expect(contract.id).toBe(idInName(names[0] as string, 'contract'));
    expect((await apiRecord('contracts', contract.id)).status).toBe(200);
    expect(contract.parties.length).toBeGreaterThan(0);
    for (const party of contract.parties) {
      expect(typeof party.entity_id).toBe('number');
      expect(await apiRecord('entities', party.entity_id)).toEqual({ status: 200, name: party.entity_name });
    }
  });

  it('references between records (division_of, merged, composition_id, extracted rows, an issuer) are found by the API', async () => {
    const [division] = await sandbox.run(["grep -l 'division_of:' entities/*/metadata.yaml | head -1"]);
    const divisionOf = (await yamlFile(lines(division?.stdout ?? '')[0] as string)).division_of;
    expect((await apiRecord('entities', divisionOf)).status).toBe(200);

    const [merged] = await sandbox.run(["grep -l '^merged:' artists/*.yaml | head -1"]);
    const artist = await yamlFile(lines(merged?.stdout ?? '')[0] as string);
    expect(artist.merged.length).toBeGreaterThan(0);
    for (const duplicate of artist.merged) expect(duplicate.id).toBeGreaterThan(3_000_000);

    const recording = await yamlFile(`recordings/${(await entries('recordings'))[0]}`);
    expect((await apiRecord('recordings', recording.id)).status).toBe(200);
    expect((await apiRecord('compositions', recording.composition_id)).status).toBe(200);

    const [extracted] = await sandbox.run(['ls contracts/*/extracted/artists.yaml | head -1']);
    const rows = await yamlFile(lines(extracted?.stdout ?? '')[0] as string);
    for (const row of rows) expect(await apiRecord('artists', row.id)).toEqual({ status: 200, name: row.name });

    const [issued] = await sandbox.run(["grep -l 'entity_id:' statements/*/metadata.yaml | head -1"]);
    const statement = await yamlFile(lines(issued?.stdout ?? '')[0] as string);
    expect((await apiRecord('statements', statement.id)).status).toBe(200);
    expect((await apiRecord('entities', statement.entity_id)).status).toBe(200);
  });

  it('no file or file name holds a store id', async () => {
    const dirs = 'contracts entities artists writers relations recordings compositions statements';
    const [names, contents] = await sandbox.run([
      `find ${dirs} | grep -E '_(ent|rel|art|wri|rec|com)_[0-9]' | head -5`,
      `grep -rlE '(: |- )(ent|rel|art|wri|rec|com)_[0-9]{5}' ${dirs} | head -5`,
    ]);
    expect({ names: names?.stdout, contents: contents?.stdout }).toEqual({ names: '', contents: '' });
  });

  it("every example command of the deployed sandbox's AGENTS.md runs with exit 0", async () => {
    const [guide] = await sandbox.run(['cat AGENTS.md']);
    const block = /```bash\n([\s\S]*?)```/.exec(guide?.stdout ?? '')?.[1] ?? '';
    const commands = lines(block);
    expect(commands.length).toBeGreaterThan(4);
    for (const result of await sandbox.run(commands)) {
      expect({ command: result.command, exitCode: result.exitCode, stderr: result.stderr }).toEqual({
        command: result.command,
        exitCode: 0,
        stderr: '',
      });
      expect(result.stdout, result.command).not.toBe('');
    }
  });
});
