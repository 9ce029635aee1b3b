// The repository stands alone: its code cites its own docs/, never documents outside it, and
// docs/architecture.md names only files that exist.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The documents beside the repository this project was started from, and the spec's numbered sections. */
const OUTSIDE = /\b(?:SPEC|SERVICE-NOW|DESIGN|CLI)\.md\b|\bSPEC (?:sections? )?\d/;

describe('the repository stands alone', () => {
  it('no file in src/ cites a document outside the repository', () => {
    const citing = sourceFiles('src').flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (OUTSIDE.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(citing).toEqual([]);
  });

  it('every section of docs/service.md that src/ cites exists', () => {
    const headings = new Set(
      readFileSync(join(root, 'docs/service.md'), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('## '))
        .map((line) => line.slice(3)),
    );
    const cited = new Set<string>();
    for (const file of sourceFiles('src'))
      for (const [, section = ''] of readFileSync(join(root, file), 'utf8').matchAll(
        /docs\/service\.md,\s*(?:\/\/\s*|\*\s*)?"([^"]+)"/g,
      ))
        cited.add(section);
    expect(cited.size).toBeGreaterThan(5);
    expect([...cited].filter((section) => !headings.has(section))).toEqual([]);
  });

  it('docs/architecture.md names only src/ paths that exist', () => {
    const text = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const named = [...text.matchAll(/\bsrc\/[\w./-]*[\w/]/g)].map(([path]) => path);
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });
});
