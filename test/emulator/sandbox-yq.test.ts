// The sandbox's yq (src/emulator/sandbox/yq.ts): several files and eval-all as mikefarah's yq reads
// them, over just-bash's own yq, whose faults are also held here so that a fixed library shows.
import { describe, expect, it } from 'vitest';
import { Bash, InMemoryFs } from 'just-bash';
import type { ExecResult } from '../helpers/spec-forms.js';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import type { Emulator } from '../../src/emulator/server.js';
import type { PersonRecord } from '../../src/emulator/store.js';
import { demoSandbox } from '../helpers/sandbox.js';

const sandbox = demoSandbox({ flavor: 'current' });
/** The commands' results in the demo project's sandbox, as the exec endpoint answers them. */
const run = (...commands: string[]) => sandbox.run(commands);

async function runOne(command: string) {
  const [result] = await run(command);
  return result as ExecResult;
}

const project = () => sandbox.emulator().state.data[DEMO_PROJECT_ID] as NonNullable<Emulator['state']['data'][string]>;
/** The artists that have a file: those not merged into another, in file-name order. */
const rootArtists = (): [PersonRecord, PersonRecord, PersonRecord, ...PersonRecord[]] => {
  const roots = project()
    .artists.filter((a) => a.merged_into === undefined)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  expect(roots.length).toBeGreaterThan(2);
  return roots as [PersonRecord, PersonRecord, PersonRecord, ...PersonRecord[]];
};
const artistFile = (id: string) => `artists/artist_${id}.yaml`;

describe("just-bash's own yq (when a test here fails, the library is fixed: drop src/emulator/sandbox/yq.ts)", () => {
  const library = () => new Bash({ fs: new InMemoryFs({ '/a.yaml': 'name: A\n', '/b.yaml': 'name: B\n' }), cwd: '/' });

  it('still evaluates only the first of several files', async () => {
    expect(await library().exec("yq '.name' a.yaml b.yaml")).toMatchObject({ stdout: 'A\n', exitCode: 0 });
  });

  it('still takes the expression after `ea` for a file name', async () => {
    expect(await library().exec("yq ea '[.] | length' a.yaml b.yaml")).toMatchObject({
      stdout: '',
      stderr: 'yq: [.] | length: No such file or directory\n',
      exitCode: 2,
    });
  });
});

describe("the sandbox's yq, several files", () => {
  it('evaluates the expression on each file, a --- line between their YAML (as mikefarah yq prints it)', async () => {
    const [first, second, third] = rootArtists();
    const files = [first, second, third].map((a) => artistFile(a.id)).join(' ');
    expect(await runOne(`yq '.name' ${files}`)).toMatchObject({
      stdout: `${first.name}\n---\n${second.name}\n---\n${third.name}\n`,
      stderr: '',
      exitCode: 0,
    });
    expect((await runOne(`yq -N '.name' ${files}`)).stdout).toBe(`${first.name}\n${second.name}\n${third.name}\n`);
    expect((await runOne(`yq --no-doc e '.id' ${files}`)).stdout).toBe(`${first.id}\n${second.id}\n${third.id}\n`);
    // JSON has no document separator: one value per file, whatever the flags' spelling.
    const spellings = ['-o json', '-o=json', '-ojson', '--output-format=json', '-r -o json', '-ro json'];
    const results = await run(...spellings.map((flags) => `yq ${flags} '.name' ${files}`));
    spellings.forEach((flags, i) => {
      const raw = flags.startsWith('-r');
      const expected = [first, second, third].map((a) => `${raw ? a.name : JSON.stringify(a.name)}\n`).join('');
      expect({ flags, ...results[i] }).toMatchObject({ flags, stdout: expected, exitCode: 0 });
    });
  });

  it('gives one answer per file over a glob: every root artist, and the contracts counted by jq -s', async () => {
    const names = (await runOne("yq -N '.name' artists/*.yaml")).stdout.trim().split('\n');
    expect(names).toEqual(rootArtists().map((a) => a.name));
    const counted = await runOne("yq -o json '.' contracts/contract_*/uploaded.yaml | jq -s 'length'");
    expect(counted).toMatchObject({ stdout: `${project().contracts.length}\n`, exitCode: 0 });
    const parties = await runOne("yq -o json '.parties | length' contracts/*/uploaded.yaml | jq -s 'add'");
    expect(parties.stdout).toBe(`${project().contracts.reduce((sum, c) => sum + c.parties.length, 0)}\n`);
  });

  it('stops at a missing file with its error and exit code, after what it printed', async () => {
    const [first] = rootArtists();
    expect(await runOne(`yq '.name' ${artistFile(first.id)} nope.yaml ${artistFile(first.id)}`)).toMatchObject({
      stdout: `${first.name}\n`,
      stderr: 'yq: nope.yaml: No such file or directory\n',
      exitCode: 2,
    });
  });

  it('-e: exit 1 only when every file gives null or false', async () => {
    const [first, second] = rootArtists();
    const files = `${artistFile(first.id)} ${artistFile(second.id)}`;
    expect(await runOne(`yq -N -e '.nope' ${files}`)).toMatchObject({ stdout: 'null\nnull\n', exitCode: 1 });
    expect(await runOne(`yq -Ne '.name | select(. == "${rootArtists()[1].name}")' ${files}`)).toMatchObject({
      exitCode: 0,
    });
  });

  it('one argument naming a file is that file, read with .; one file, stdin and -n run as before', async () => {
    const stats = await runOne('yq stats.yaml');
    expect(stats.stdout).toContain(`  artists: ${rootArtists().length}\n`);
    expect(await runOne("yq '.counts.contracts' stats.yaml")).toMatchObject({
      stdout: `${project().contracts.length}\n`,
      exitCode: 0,
    });
    expect(await runOne("echo '{\"a\": 3}' | yq -p json '.a'")).toMatchObject({ stdout: '3\n', exitCode: 0 });
    expect(await runOne("yq -n '1 + 1'")).toMatchObject({ stdout: '2\n', exitCode: 0 });
  });
});

describe("the sandbox's yq, eval-all", () => {
  it('counts the documents of every file: ea, eval-all, options before the command, stdin', async () => {
    const count = `${rootArtists().length}\n`;
    expect(await runOne("yq ea '[.] | length' artists/*.yaml")).toMatchObject({
      stdout: count,
      stderr: '',
      exitCode: 0,
    });
    expect((await runOne("yq eval-all '[.] | length' artists/*.yaml")).stdout).toBe(count);
    expect((await runOne("yq -o json -c ea '[.] | map(.id) | .[0:2]' artists/*.yaml")).stdout).toBe(
      `${JSON.stringify(
        rootArtists()
          .slice(0, 2)
          .map((a) => a.id),
      )}\n`,
    );
    // Two documents in one stream, and one file: each is a document.
    expect((await runOne("printf 'a: 1\\n---\\na: 2\\n' | yq ea '[.] | length'")).stdout).toBe('2\n');
    expect((await runOne("yq ea '[.] | length' stats.yaml")).stdout).toBe('1\n');
  });

  it('maps each stage over every document, and gathers a collect over all of them', async () => {
    const [first, second] = rootArtists();
    const files = `${artistFile(first.id)} ${artistFile(second.id)}`;
    expect((await runOne(`yq ea '.name' ${files}`)).stdout).toBe(`${first.name}\n${second.name}\n`);
    expect((await runOne(`yq ea 'select(.name == "${second.name}") | .id' artists/*.yaml`)).stdout).toBe(
      `${second.id}\n`,
    );
    // Pipes inside if … end, brackets and strings do not split the expression's stages.
    const ifEnd = `yq ea 'if .name == "${first.name}" then .id | ascii_upcase else empty end | [.] | length' artists/*.yaml`;
    expect((await runOne(ifEnd)).stdout).toBe('1\n');
    expect((await runOne(`yq -o json -c ea '[.name | ascii_downcase] | .[0]' ${files}`)).stdout).toBe(
      `${JSON.stringify(first.name.toLowerCase())}\n`,
    );
    expect((await runOne(`yq -r -o json ea '[.] | map(.name) | join("|")' ${files}`)).stdout).toBe(
      `${first.name}|${second.name}\n`,
    );
    // An update (|=) is not a pipe.
    expect((await runOne(`yq -N ea '.name |= "x" | .name' ${files}`)).stdout).toBe('x\nx\n');
  });

  it('a file that cannot be read fails the whole command with its error', async () => {
    expect(await runOne("yq ea '[.] | length' stats.yaml nope.yaml")).toMatchObject({
      stdout: '',
      stderr: 'yq: nope.yaml: No such file or directory\n',
      exitCode: 2,
    });
  });
});
