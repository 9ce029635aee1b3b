// The shapes lists check their pages with (no zod) and the zod schemas built from them (schemaOf)
// say the same: shapeOf reads each schema back into its shape, field for field and in order.
import { describe, expect, it } from 'vitest';
import { RESOURCE_SCHEMAS } from '../../src/lib/api/catalog-schemas.js';
import { RESOURCE_NAMES } from '../../src/lib/api/catalog.js';
import { ITEM_SHAPES, PROJECT_SHAPE, shapeFields } from '../../src/lib/api/shapes.js';
import { Project, shapeOf } from '../../src/lib/schemas.js';
import { schemaFields } from '../../src/lib/fields.js';

describe('the shapes of listed records', () => {
  it('are their schemas, field for field and in order', () => {
    const pairs = [['projects', PROJECT_SHAPE, Project], ...RESOURCE_NAMES.map((name) => [name, ITEM_SHAPES[name], RESOURCE_SCHEMAS[name].item] as const)] as const;
    for (const [name, shape, schema] of pairs) {
      expect({ name, shape }).toEqual({ name, shape: shapeOf(schema) });
      expect({ name, fields: shapeFields(shape) }).toEqual({ name, fields: schemaFields(schema) });
    }
  });
});
