// The house's rules that a habit would not keep: files of src/ short enough to hold (seed data
// aside), the three modules that once mixed jobs shorter still, no `as never` cast, no verb
// module that reaches back into its noun's index (the index imports the verbs, not the reverse),
// and a noun's verbs registered from its own folder.
// Each failure names the file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const files = sourceFiles('src');
const text = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));
const lineCount = (file: string): number => (text.get(file) ?? '').replace(/\n$/, '').split('\n').length;

/** Seed data (word lists, the seeded records): long by nature, and read as tables, not as code. */
const isSeedData = (file: string): boolean =>
  file === 'src/emulator/seed-words.ts' || file.startsWith('src/emulator/seed/');

const MAX_LINES = 400;
/** These three once mixed several jobs each; they are kept well below the general limit. */
const SHORTER = ['src/lib/output/renderer.ts', 'src/lib/config/settings.ts', 'src/lib/http/client.ts'];
const MAX_SHORTER_LINES = 349;

describe('the house', () => {
  it(`no file of src/ is over ${MAX_LINES} lines, seed data aside`, () => {
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .filter((file) => !isSeedData(file) && lineCount(file) > MAX_LINES)
      .map((file) => `${file}: ${lineCount(file)} lines`);
    expect(long).toEqual([]);
  });

  it(`${SHORTER.join(', ')} are under 350 lines`, () => {
    const long = SHORTER.filter((file) => lineCount(file) > MAX_SHORTER_LINES).map(
      (file) => `${file}: ${lineCount(file)} lines`,
    );
    expect(long).toEqual([]);
  });

  it('no `as never` in src/', () => {
    const casts = files.flatMap((file) =>
      (text.get(file) ?? '')
        .split('\n')
        .flatMap((line, index) => (/\bas never\b/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(casts).toEqual([]);
  });

  it("src/ cites no issue numbers and carries no other linter's comments (Biome is the linter)", () => {
    const stale = files.flatMap((file) =>
      (text.get(file) ?? '')
        .split('\n')
        .flatMap((line, index) =>
          /\bissues? #?\d+|\beslint-(disable|enable)|\bprettier-ignore\b/i.test(line)
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(stale).toEqual([]);
  });

  it("the README (a user's page) is at most 300 lines, docs/architecture.md at most 400", () => {
    const lines = (file: string) => readFileSync(join(root, file), 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines('README.md')).toBeLessThanOrEqual(300);
    expect(lines('docs/architecture.md')).toBeLessThanOrEqual(400);
  });

  // None left: the types say what the casts said (zod's internals through their own types, records
  // read by name as objects); the limit only ever drops.
  const MAX_DOUBLE_CASTS = 0;
  it(`at most ${MAX_DOUBLE_CASTS} \`as unknown as\` casts in src/`, () => {
    const casts = files.flatMap((file) =>
      (text.get(file) ?? '')
        .split('\n')
        .flatMap((line, index) => (/\bas unknown as\b/.test(line) ? [`${file}:${index + 1}`] : [])),
    );
    expect(casts.length, casts.join('\n')).toBeLessThanOrEqual(MAX_DOUBLE_CASTS);
  });

  it('src/lib keeps at most 15 files loose: the rest are in its rooms', () => {
    const loose = readdirSync(join(root, 'src/lib')).filter(
      (name) => !statSync(join(root, 'src/lib', name)).isDirectory(),
    );
    expect(loose.length).toBeGreaterThan(0);
    expect(loose.length, loose.join(', ')).toBeLessThanOrEqual(15);
  });

  it("no verb module under src/commands/<noun>/ imports its noun's index.ts", () => {
    const nounFiles = files.filter((file) => /^src\/commands\/[^/]+\/.+\.ts$/.test(file));
    expect(nounFiles.length).toBeGreaterThan(50);
    const backwards = nounFiles.flatMap((file) => {
      const noun = file.split('/')[2] as string;
      const index = `src/commands/${noun}/index.ts`;
      if (file === index) return [];
      const imports = [...(text.get(file) ?? '').matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g)];
      return imports
        .map(([, from, dynamic]) => (from ?? dynamic) as string)
        .filter((path) => relative(root, resolve(root, dirname(file), path.replace(/\.js$/, '.ts'))) === index)
        .map((path) => `${file} imports ${path}`);
    });
    expect(backwards).toEqual([]);
  });

  // A noun's verbs live in its folder: its index joins its own definitions to modules beside them
  // and calls the functions that make the verbs it shares (catalog/: ls, get; documents/: status,
  // download, retry, tag). The noun the program lists is the one its folder makes.
  for (const [noun, kind] of [
    ['statements', 'statement'],
    ['contracts', 'contract'],
  ] as const) {
    it(`every verb of \`pds ${noun}\` is registered from src/commands/${noun}/`, async () => {
      const { COMMANDS } = await import('../../src/commands/index.js');
      const folder = (await import(`../../src/commands/${noun}/index.ts`)) as Record<string, unknown>;
      const { catalogVerbs } = await import('../../src/commands/catalog/index.js');
      const { documentVerbs } = await import('../../src/commands/documents/index.js');
      const listed = COMMANDS.find((command) => command.name === noun);
      expect(listed).toBeDefined();
      expect(listed).toBe(folder[noun]);

      const index = (text.get(`src/commands/${noun}/index.ts`) ?? '').replace(/\s+/g, ' ');
      expect(index).toContain(`catalogNoun('${noun}'`);
      expect(index).toContain(`documentVerbs('${kind}')`);
      const shared = [...Object.values(catalogVerbs(noun)), ...documentVerbs(kind)].map((verb) => verb.name);
      // Shared means the same for every kind: no noun's own verb hides in documents/.
      const sharedBy = (of: 'contract' | 'statement') => documentVerbs(of).map((verb) => verb.name);
      expect(sharedBy('statement')).toEqual(sharedBy('contract'));
      const definitions = text.has(`src/commands/${noun}/definitions.ts`)
        ? ((await import(`../../src/commands/${noun}/definitions.ts`)) as Record<string, { name: string }>)
        : {};
      const joined = [...index.matchAll(/defineVerb\(\s*definitions\.(\w+),\s*\(\) => import\('\.\/([\w-]+)\.js'\)/g)];
      const own = joined.map(([, definition, module]) => {
        expect(text.has(`src/commands/${noun}/${module}.ts`), `${noun}/${module}.ts`).toBe(true);
        return definitions[definition as string]?.name;
      });
      expect(own).not.toContain(undefined);
      if (noun === 'statements') expect(own).toEqual(expect.arrayContaining(['lines', 'update', 'totals', 'check']));
      const names = (listed && 'verbs' in listed ? listed.verbs : []).map((verb) => verb.name);
      expect(new Set(names).size).toBe(names.length);
      expect([...names].sort()).toEqual([...shared, ...own].sort());
    });
  }
});
