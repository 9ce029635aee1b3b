// The plain checks derived from the response schemas agree with zod on every value, and a schema
// that does more than check (a transform) gets none, so zod parses it.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ContractProcesses, Project, envelope, listOf, plainCheck } from '../../src/lib/schemas.js';
import { RESOURCE_SCHEMAS } from '../../src/lib/api/catalog-schemas.js';

const { artists: Artist, compositions: Composition, statements: Statement } = RESOURCE_SCHEMAS;

const project = { id: 'p1', name: 'Northern Lights', created_at: '2022-11-08T09:30:00.000Z', organization_id: 'o1' };
const artist = { id: 'art_1', name: 'Nova Reyes', project_id: 'p1' };
const composition = {
  id: 'com_1',
  name: 'Song',
  type: 'original',
  writers: ['A'],
  artists: ['B'],
  created_at: 'x',
  updated_at: 'y',
  products: [{ name: 'P', upc: '1', release_date: '2020-01-01', artists: ['B'], source: 's', store: 't' }],
};

const cases: [string, z.ZodMiniType, unknown[]][] = [
  [
    'a project',
    Project,
    [
      project,
      { ...project, extra: [1] },
      { ...project, id: 7 },
      { ...project, name: undefined },
      null,
      [project],
      'p1',
    ],
  ],
  [
    'an artist',
    Artist,
    [
      artist,
      { ...artist, merged: [{ id: 'art_2', name: 'N.' }] },
      { ...artist, merged: [{ id: 'art_2' }] },
      { ...artist, merged: null },
      { ...artist, merged: {} },
    ],
  ],
  [
    'a statement',
    Statement,
    [
      { id: 1 },
      { id: 1.5 },
      { id: '1' },
      { id: 2 ** 53 },
      { id: 1, file_size: -3 },
      { id: 1, has_costs: 'no' },
      { id: 1, file_name: null },
    ],
  ],
  [
    'a composition',
    Composition,
    [
      composition,
      { ...composition, products: [{ ...composition.products[0], upc: 1 }] },
      { ...composition, writers: 'A' },
    ],
  ],
  [
    'a list in either envelope',
    listOf(Artist),
    [
      [artist],
      [],
      { items: [artist], total_count: 1, page: 1, per_page: 20 },
      { items: [artist], total_count: '1', page: 1, per_page: 20 },
      { items: [{}] },
      [artist, 3],
    ],
  ],
  [
    'contract processes (nullable objects, records)',
    ContractProcesses,
    [
      {
        staging_id: 1,
        contract_id: null,
        staging_done: true,
        extraction_done: false,
        staging_processes: { stage: 's', info: {} },
        extraction_processes: null,
      },
      {
        staging_id: 1,
        contract_id: 2,
        staging_done: true,
        extraction_done: true,
        staging_processes: { stage: 's', info: {} },
        extraction_processes: { stage: 'x', extractions: [{ name: 'n', status: 's', completed_at: null }] },
      },
      {
        staging_id: 1,
        contract_id: 2,
        staging_done: true,
        extraction_done: true,
        staging_processes: { stage: 's', info: {} },
        extraction_processes: { stage: 'x', extractions: [{ name: 'n' }] },
      },
    ],
  ],
];

describe('plainCheck', () => {
  it.each(cases)('agrees with zod on %s, in the {data} envelope too', (_name, schema, values) => {
    const check = plainCheck(schema);
    const inEnvelope = plainCheck(envelope(schema));
    expect(check).toBeTypeOf('function');
    expect(inEnvelope).toBeTypeOf('function');
    for (const value of values) {
      expect([value, check?.(value)]).toEqual([value, schema.safeParse(value).success]);
      expect([value, inEnvelope?.({ data: value })]).toEqual([
        value,
        envelope(schema).safeParse({ data: value }).success,
      ]);
    }
  });

  it('gives no plain check for a schema that transforms (its parse is its output)', () => {
    const withTransform = z.pipe(z.string(), z.transform(Number));
    expect(plainCheck(withTransform)).toBeNull();
    expect(plainCheck(z.array(withTransform))).toBeNull();
    expect(plainCheck(z.string().check(z.regex(/^a/)))).toBeNull();
  });
});
