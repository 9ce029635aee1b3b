// Every sandbox command the documentation shows (the workspace's AGENTS.md, README.md,
// docs/guide.md) runs here, and its answer is checked against the emulator's seeded data: counts,
// names and files computed from the store, not only an exit code. An example without an answer
// check here fails the test, so a new example comes with one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEMO_PROJECT_ID } from '../../src/emulator/seed.js';
import type { ProjectData } from '../../src/emulator/store.js';
import { STORE_IDS } from '../../src/emulator/sandbox/ids.js';
import { readWorkspacePath, workspaceFor } from '../../src/emulator/sandbox/workspace.js';
import type { ExecResult } from '../helpers/spec-forms.js';
import { demoSandbox } from '../helpers/sandbox.js';
import { runCli } from '../helpers/cli.js';

const sandbox = demoSandbox({ flavor: 'current' });
const run = sandbox.run;

const data = (): ProjectData => sandbox.emulator().state.data[DEMO_PROJECT_ID] as ProjectData;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const roots = <T extends { merged_into?: string }>(records: T[]) => records.filter((r) => r.merged_into === undefined);
const lines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/** Root records whose file mentions `word` (in a name of their own or of a duplicate merged into them). */
function mentioning(
  records: { id: string; name: string; merged_into?: string }[],
  word: RegExp,
  file: (id: string) => string,
): string[] {
  return roots(records)
    .filter((root) => records.some((r) => (r.id === root.id || r.merged_into === root.id) && word.test(r.name)))
    .map((root) => file(root.id))
    .sort(byText);
}

async function workspaceText(path: string): Promise<string> {
  const project = sandbox.emulator().state.projects.find((p) => p.id === DEMO_PROJECT_ID);
  const entry = readWorkspacePath(await workspaceFor(project as NonNullable<typeof project>, data(), STORE_IDS), path);
  return entry?.type === 'file' ? entry.content : '';
}

/** What each documented command must answer: its stdout checked against the store. */
const ANSWERS: Record<string, (stdout: string) => void | Promise<void>> = {
  'cat stats.yaml': (stdout) => {
    const stats = parseYaml(stdout) as { project: { id: string }; counts: Record<string, number> };
    const d = data();
    expect(stats.project.id).toBe(DEMO_PROJECT_ID);
    expect(stats.counts).toEqual({
      contracts: d.contracts.length,
      statements: d.statements.length,
      entities: roots(d.entities).length,
      relations: roots(d.relations).length,
      artists: roots(d.artists).length,
      writers: roots(d.writers).length,
      recordings: d.recordings.length,
      compositions: d.compositions.length,
    });
  },
  'ls contracts | head': (stdout) => {
    expect(lines(stdout)).toEqual(
      data()
        .contracts.map((c) => `contract_${c.id}`)
        .sort(byText)
        .slice(0, 10),
    );
  },
  "grep -h 'type:' contracts/*/extracted/royalties.yaml | sort | uniq -c | sort -rn": (stdout) => {
    const expected = new Map<string, number>();
    for (const contract of data().contracts)
      for (const row of contract.includes.royalties ?? [])
        expected.set(String(row.type), (expected.get(String(row.type)) ?? 0) + 1);
    const counted = lines(stdout).map((line) => /^\s*(\d+)\s+type: (.*)$/.exec(line)?.slice(1) ?? [line]);
    expect(new Map(counted.map(([n, type]) => [type as string, Number(n)]))).toEqual(expected);
    expect(counted.map(([n]) => Number(n))).toEqual([...expected.values()].sort((a, b) => b - a));
  },
  "grep -l 'role: assignee' entities/*/metadata.yaml | wc -l": (stdout) => {
    const assignees = new Set(
      data().contracts.flatMap((c) => c.parties.filter((p) => p.role === 'assignee').map((p) => p.entity_id)),
    );
    expect(stdout.trim()).toBe(String(roots(data().entities).filter((e) => assignees.has(e.id)).length));
  },
  "yq -N '.name' artists/*.yaml | sort | head": (stdout) => {
    expect(lines(stdout)).toEqual(
      roots(data().artists)
        .map((a) => a.name)
        .sort(byText)
        .slice(0, 10),
    );
  },
  "yq ea '[.] | length' artists/*.yaml": (stdout) => {
    expect(stdout).toBe(`${roots(data().artists).length}\n`);
  },
  "yq -o json '.' contracts/contract_*/uploaded.yaml | jq -s 'map({id, name, parties: (.parties | length)})'": (
    stdout,
  ) => {
    const contracts = [...data().contracts].sort((a, b) => byText(`contract_${a.id}`, `contract_${b.id}`));
    expect(JSON.parse(stdout)).toEqual(contracts.map((c) => ({ id: c.id, name: c.name, parties: c.parties.length })));
  },
  'find entities -name merged.yaml': (stdout) => {
    const merged = roots(data().entities).filter((root) => data().entities.some((e) => e.merged_into === root.id));
    expect(lines(stdout).sort(byText)).toEqual(merged.map((e) => `entities/entity_${e.id}/merged.yaml`).sort(byText));
    expect(merged.length).toBeGreaterThan(0);
  },
  'grep -ril nova artists | head -5': (stdout) => {
    expect(lines(stdout)).toEqual(mentioning(data().artists, /nova/i, (id) => `artists/artist_${id}.yaml`).slice(0, 5));
  },
  'grep -ril nova artists': (stdout) => {
    expect(lines(stdout).sort(byText)).toEqual(
      mentioning(data().artists, /nova/i, (id) => `artists/artist_${id}.yaml`),
    );
  },
  'grep -ril nova writers': (stdout) => {
    const found = mentioning(data().writers, /nova/i, (id) => `writers/writer_${id}.yaml`);
    expect(lines(stdout).sort(byText)).toEqual(found);
    expect(found.length).toBeGreaterThan(0);
  },
  'wc -l contracts/*/uploaded.yaml': async (stdout) => {
    const files = data()
      .contracts.map((c) => `contracts/contract_${c.id}/uploaded.yaml`)
      .sort(byText);
    const counts = await Promise.all(files.map(async (file) => lines(await workspaceText(file)).length));
    const total = counts.reduce((sum, n) => sum + n, 0);
    expect(lines(stdout).map((line) => line.trim().split(/\s+/))).toEqual([
      ...files.map((file, i) => [String(counts[i]), file]),
      [String(total), 'total'],
    ]);
  },
};

/** The lines of a document's fenced code blocks. */
function codeLines(markdown: string): string[] {
  return [...markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((block) => (block[1] as string).split('\n'));
}

/** A command line split as a POSIX shell splits single- and double-quoted words (enough for the docs). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const word = /'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g;
  for (const match of line.matchAll(word))
    words.push(match[1] ?? (match[2] as string | undefined)?.replace(/\\(.)/g, '$1') ?? (match[3] as string));
  return words;
}

/** `pds sandbox exec …` lines of the docs: their arguments, without a trailing comment. */
function documentedExecLines(): { file: string; line: string; args: string[] }[] {
  return ['README.md', 'docs/guide.md'].flatMap((file) =>
    codeLines(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'))
      .map((line) => line.replace(/\s+#\s.*$/, '').trim())
      .filter((line) => line.startsWith('pds sandbox exec '))
      .map((line) => ({ file, line, args: shellWords(line).slice(1) })),
  );
}

describe('documented sandbox commands give the right answers', () => {
  it("AGENTS.md's examples, each checked against the store", async () => {
    const guide = await workspaceText('AGENTS.md');
    const block = /```bash\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
    const commands = lines(block);
    expect(commands.length).toBeGreaterThan(4);
    for (const command of commands)
      expect(Object.keys(ANSWERS), `add an answer check for: ${command}`).toContain(command);
    const results = await run(commands);
    for (const result of results) {
      expect({ command: result.command, exitCode: result.exitCode, stderr: result.stderr }).toEqual({
        command: result.command,
        exitCode: 0,
        stderr: '',
      });
      await (ANSWERS[result.command] as (stdout: string) => void | Promise<void>)(result.stdout);
    }
  });

  it("README.md's and the guide's `pds sandbox exec` lines: pds prints each command's answer", async () => {
    const examples = documentedExecLines();
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const { file, line, args } of examples) {
      // `exec -` reads its commands from stdin, which the example does not show.
      if (args.includes('-')) continue;
      const commands = args.slice(2).filter((arg) => !arg.startsWith('--'));
      for (const command of commands)
        expect(Object.keys(ANSWERS), `${file}: add an answer check for: ${command}`).toContain(command);
      const pds = await runCli(sandbox.emulator(), args);
      expect({ line, code: pds.code, stderr: pds.stderr }).toEqual({ line, code: 0, stderr: '' });
      const stdouts = args.includes('--json')
        ? (JSON.parse(pds.stdout) as ExecResult[]).map((r) => r.stdout)
        : undefined;
      const results = await run(commands);
      // Piped, pds writes each command's stdout in order, as the sandbox gave it.
      if (!stdouts) expect(pds.stdout).toBe(results.map((r) => r.stdout).join(''));
      for (const [i, result] of results.entries())
        await (ANSWERS[result.command] as (stdout: string) => void | Promise<void>)(stdouts?.[i] ?? result.stdout);
    }
  });
});
