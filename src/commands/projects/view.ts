// How projects look in a list.
import type { Column } from '../../lib/output/view.js';
import type { Project } from '../../lib/schemas.js';

export const projectColumns: Column<Project>[] = [
  { header: 'id', value: (p) => p.id, format: 'id' },
  { header: 'name', value: (p) => p.name, format: 'name' },
  { header: 'created', value: (p) => p.created_at, format: 'date' },
];

/** What a project is called in a sentence: its name, or its id when the service sent no name. */
export function projectLabel(project: Pick<Project, 'id' | 'name'>): string {
  return typeof project.name === 'string' && project.name !== '' ? project.name : project.id;
}
