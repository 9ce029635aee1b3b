// Issue 30 §3: "client and emulator must never only check each other". The emulator's tests read its
// answers with the documents' forms (test/helpers/spec-forms.ts), never with the client's schemas
// (src/lib/schemas.ts) or its API layer (src/lib/api/*): this file holds that line, and checks that
// those forms are as strict as SPEC.md, so a departure of the emulator fails the tests that use them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  Artist,
  Contract,
  ContractUpload,
  Entity,
  ErrorBody,
  Project,
  SearchResult,
  Statement,
  StatementDetail,
} from '../helpers/spec-forms.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');

/** Every module a source text imports (static, type-only, re-exported or dynamic), as written. */
function importsOf(source: string): string[] {
  const specifiers = /\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;
  return [...source.matchAll(specifiers)].map((match) => match[1] as string);
}

/** The client modules the emulator's tests must not read answers with, reached from `file`. */
function clientSchemaImports(file: string, source: string): string[] {
  return importsOf(source)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(ROOT, resolve(dirname(file), specifier)).replace(/\.js$/, ''))
    .filter((path) => path === 'src/lib/schemas' || path.startsWith('src/lib/api/'));
}

describe('the emulator tests and the client schemas', () => {
  it('finds an import of the client schemas in every form one can be written', () => {
    const file = join(HERE, 'example.test.ts');
    // Put together, so that this file's own text imports nothing of the client.
    const lib = '../../src/lib';
    const source = [
      `import { Entity } from '${lib}/schemas.js';`,
      `import type { Artist } from "${lib}/schemas.js";`,
      `export { envelope } from '${lib}/schemas.js';`,
      `const api = await import('${lib}/api/catalog.js');`,
      "import { ok } from '../helpers/spec-forms.js';",
      "import { seed } from '../../src/emulator/seed.js';",
    ].join('\n');
    expect(clientSchemaImports(file, source)).toEqual([
      'src/lib/schemas',
      'src/lib/schemas',
      'src/lib/schemas',
      'src/lib/api/catalog',
    ]);
  });

  it('no test of the emulator imports src/lib/schemas.ts or src/lib/api/*', () => {
    const files = readdirSync(HERE).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((name) => {
      const file = join(HERE, name);
      return clientSchemaImports(file, readFileSync(file, 'utf8')).map((path) => `${name} imports ${path}`);
    });
    expect(offenders).toEqual([]);
  });

  it('the forms are written from the documents alone: spec-forms.ts imports zod and nothing of pds', () => {
    const source = readFileSync(join(HERE, '../helpers/spec-forms.ts'), 'utf8');
    expect(importsOf(source)).toEqual(['zod/mini']);
  });
});

describe("spec-forms hold SPEC.md's forms strictly", () => {
  const ok = (schema: z.ZodMiniType, value: unknown) => z.safeParse(schema, value).success;
  const uuid = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';
  const at = '2025-03-01T10:00:00.000Z';

  it('a project has exactly its four fields, UUIDs and an ISO 8601 time (SPEC 2, Project)', () => {
    const project = { id: uuid, name: 'Northern Lights', created_at: at, organization_id: uuid };
    expect(ok(Project, project)).toBe(true);
    expect(ok(Project, { ...project, updated_at: null })).toBe(false);
    expect(ok(Project, { ...project, id: 'proj_1' })).toBe(false);
    expect(ok(Project, { ...project, created_at: '2025-03-01' })).toBe(false);
  });

  it('fields omitted when null are optional, never null (SPEC 2, Entity)', () => {
    const entity = {
      id: 'ent_1',
      internal_uuid: uuid,
      name: 'Lumen',
      project_id: uuid,
      created_at: at,
      updated_at: at,
    };
    expect(ok(Entity, entity)).toBe(true);
    expect(ok(Entity, { ...entity, email: 'a@b.example' })).toBe(true);
    expect(ok(Entity, { ...entity, email: null })).toBe(false);
    expect(ok(Entity, { ...entity, merged: [{ id: 'ent_2', name: 'Lumen', merged_at: at }] })).toBe(false);
  });

  it('ids are strings but a statement’s, an integer (SPEC 2)', () => {
    expect(ok(Artist, { id: 'art_1', name: 'Nova', project_id: uuid })).toBe(true);
    expect(ok(Artist, { id: 1, name: 'Nova', project_id: uuid })).toBe(false);
    const statement = { id: 7, file_name: 'q3.pdf', file_type: 'application/pdf', created_at: at };
    expect(ok(Statement, statement)).toBe(true);
    expect(ok(Statement, { ...statement, id: '7' })).toBe(false);
  });

  it('the single-item fields of a statement are not in the list shape (SPEC 2, Statement)', () => {
    const statement = {
      id: 7,
      file_name: 'q3.pdf',
      file_type: 'application/pdf',
      created_at: at,
      statement_desc: 'Q3',
    };
    expect(ok(StatementDetail, statement)).toBe(true);
    expect(ok(Statement, statement)).toBe(false);
    expect(ok(StatementDetail, { ...statement, currency_royalty: 'euro' })).toBe(false);
  });

  it('a contract may carry further base fields, and each include is an array (SPEC 2, Contract)', () => {
    const contract = { id: '20001', name: 'Deal', project_id: uuid, created_at: at };
    expect(ok(Contract, { ...contract, signed: true })).toBe(true);
    expect(ok(Contract, { ...contract, royalties: [{ id: 'r1', rate: 0.18, type: 'net' }] })).toBe(true);
    expect(ok(Contract, { ...contract, royalties: { count: 1 } })).toBe(false);
    expect(ok(Contract, { ...contract, entities: [{ id: 'ent_1' }] })).toBe(false);
    expect(ok(Contract, { id: '20001', file_name: 'deal.pdf', created_at: at })).toBe(false);
  });

  it('search is the array form, not the drifted one (SPEC 2, Search result)', () => {
    expect(ok(SearchResult, { type: 'artist', id: 'art_1', name: 'Nova', score: 1 })).toBe(true);
    expect(
      ok(SearchResult, { id: 'art_1', name: 'Nova', matched_keywords: ['nova'], is_metadata_match: true, rank: 1 }),
    ).toBe(false);
  });

  it('an upload record has the stages of SPEC 3 only (SPEC 4.8)', () => {
    const upload = {
      staging_id: 1,
      staging_stage: 'queued',
      staging_done: false,
      extractions_done: false,
      created_at: at,
    };
    expect(ok(ContractUpload, upload)).toBe(true);
    expect(ok(ContractUpload, { ...upload, staging_stage: 'uploaded' })).toBe(false);
  });

  it('an error body is a message alone or field details alone (SPEC 7)', () => {
    expect(ok(ErrorBody, { error: { message: 'not found' } })).toBe(true);
    expect(ok(ErrorBody, { error: { q: ['q is required'], limit: ['too big'] } })).toBe(true);
    expect(ok(ErrorBody, { error: { message: 'bad', q: ['q is required'] } })).toBe(false);
    expect(ok(ErrorBody, { error: { q: 'q is required' } })).toBe(false);
    expect(ok(ErrorBody, { error: {} })).toBe(false);
    expect(ok(ErrorBody, { error: { message: 'x' }, message: 'x' })).toBe(false);
  });
});
