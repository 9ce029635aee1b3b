// How projects look in a list.
import type { Column } from '../../lib/output.js';
import type { Project } from '../../lib/schemas.js';

export const projectColumns: Column<Project>[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'name', value: (p) => p.name },
  { header: 'created', value: (p) => p.created_at, date: true },
];
