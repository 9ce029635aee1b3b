// What pds checks of a record (its id) and what it documents of it (every field of both forms)
// agree: the zod schema of each record names every documented field, in the documented order (so
// the agents' tools list them), checks the id as its shape says, and lets every other field be
// anything: a field pds only shows never fails a command (issue 30).
import { describe, expect, it } from 'vitest';
import { RESOURCE_SCHEMAS } from '../../src/lib/api/catalog-schemas.js';
import { RESOURCE_NAMES } from '../../src/lib/resources.js';
import { ITEM_SHAPES, PROJECT_SHAPE, shapeFields } from '../../src/lib/api/shapes.js';
import { Project } from '../../src/lib/schemas.js';
import { schemaFields } from '../../src/lib/output/fields.js';

const pairs = [
  ['projects', PROJECT_SHAPE, Project],
  ...RESOURCE_NAMES.map((name) => [name, ITEM_SHAPES[name], RESOURCE_SCHEMAS[name]] as const),
] as const;

describe('the record schemas', () => {
  it('name every documented field, in order', () => {
    for (const [name, shape, schema] of pairs) {
      expect({ name, fields: schemaFields(schema) }).toEqual({ name, fields: shapeFields(shape) });
    }
  });

  it('need only an id, and take any form of every other field', () => {
    for (const [name, shape, schema] of pairs) {
      const id = name === 'projects' ? '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7' : 7;
      const odd = Object.fromEntries(
        shapeFields(shape)
          .filter((field) => field !== 'id')
          .map((field, i) => [field, [null, 3, 'x', [{ a: 1 }], { b: true }][i % 5]]),
      );
      expect({ name, ok: schema.safeParse({ id, ...odd, brand_new: { x: 1 } }).success }).toEqual({ name, ok: true });
      expect({ name, ok: schema.safeParse({ id }).success }).toEqual({ name, ok: true });
      expect({ name, ok: schema.safeParse({ name: 'no id' }).success }).toEqual({ name, ok: false });
      expect({ name, ok: schema.safeParse({ id: { nested: 1 } }).success }).toEqual({ name, ok: false });
    }
  });

  it('take a number or a string as the id of every record but a project', () => {
    for (const [name, , schema] of pairs) {
      expect({
        name,
        number: schema.safeParse({ id: 61001 }).success,
        text: schema.safeParse({ id: 'ent_1' }).success,
      }).toEqual({
        name,
        number: name !== 'projects',
        text: true,
      });
    }
  });
});
