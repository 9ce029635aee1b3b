// The records are typed by their documented shapes (lib/api/shapes.ts), and a resource's columns by
// its record: a misspelt field is a type error, which `npm run typecheck` (CI) reports. Each
// `@ts-expect-error` below fails the type-check the day the line it marks compiles, so the typing
// cannot loosen unnoticed; the assertions check that the typed columns read the records they type.
import { describe, expect, it } from 'vitest';
import type { Artist, Statement } from '../../src/lib/api/catalog.js';
import type { Column } from '../../src/lib/output/view.js';
import { COLUMNS } from '../../src/commands/catalog/views.js';

describe('records typed by their shapes, columns by their records', () => {
  it('a column reads the fields its record documents, and a misspelt field does not compile', () => {
    const artist: Artist = { id: 3000001, name: 'Nova', merged: [{ id: 3000009, name: 'Nova.' }] };
    // @ts-expect-error: an artist has no `contry` (only the fields of its shape)
    const misspelt: Column<Artist> = { header: 'country', value: (a) => a.contry };
    // @ts-expect-error: the resources' table holds each resource's columns typed by its record
    const table: typeof COLUMNS = { ...COLUMNS, artists: [misspelt, { header: 'x', value: (a) => a.nmae }] };
    expect(table.artists).toHaveLength(2);
    expect(COLUMNS.artists.map((column) => column.value(artist))).toEqual([3000001, 'Nova', 1]);
  });

  it("a statement's nested fields are typed too", () => {
    const statement: Statement = { id: 40001, financials: { currency: 'EUR', licensor_revenue: 12.5 } };
    // @ts-expect-error: financials hold licensor_revenue, not licensor_revenu
    const misspelt = statement.financials?.licensor_revenu;
    expect(misspelt).toBeUndefined();
    const licensor = COLUMNS.statements.find((column) => column.header === 'licensor');
    expect(licensor?.value(statement)).toBe(12.5);
    expect(licensor?.currency?.(statement)).toBe('EUR');
  });
});
