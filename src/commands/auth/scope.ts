// What a token reaches, as told by GET /v1/projects.
import type { Project } from '../../lib/schemas.js';
import { projectLabel } from '../projects/view.js';

export type Scope = { type: 'organization'; projects: number } | { type: 'project'; id: string; name: string };

/**
 * The service has no "who am I" endpoint, so the scope is inferred from the project list: a
 * project-scoped token sees exactly its one project (docs/service.md, "Two forms"), an organization token sees all of
 * its organization's. One visible project is therefore reported as project scope. An organization
 * token of a one-project organization looks the same, and reaches exactly the same data today, so
 * the answer is right about what the token can do even where it cannot tell the kind of token.
 */
export function scopeOf(projects: Project[]): Scope {
  const [only] = projects;
  if (projects.length === 1 && only) return { type: 'project', id: only.id, name: projectLabel(only) };
  return { type: 'organization', projects: projects.length };
}

export function describeScope(scope: Scope): string {
  if (scope.type === 'project') return `project ${scope.name} (${scope.id})`;
  return `organization (${scope.projects} ${scope.projects === 1 ? 'project' : 'projects'})`;
}
