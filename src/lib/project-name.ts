// A project named by its exact name (`pds use "Northern Lights Catalog"`, `-p "Northern Lights Catalog"`).
import type { Api } from './api/index.js';
import { UsageError } from './errors.js';
import type { Project } from './schemas.js';

/** Exact names only: a near match picked silently would aim every later command at the wrong project. */
export async function projectByName(name: string, api: Api): Promise<Project> {
  const projects = await api.projects.list();
  const matches = projects.filter((p) => p.name === name);
  const [only] = matches;
  if (matches.length === 1 && only) return only;
  const candidates = (matches.length > 1 ? matches : projects).map((p) => `${p.id}  ${p.name}`);
  if (matches.length > 1) {
    throw new UsageError(`${matches.length} projects are named '${name}': use the id`, { details: candidates });
  }
  throw new UsageError(`no project named '${name}'`, {
    details: projects.length > 0 ? ['projects this token reaches:', ...candidates.map((c) => `  ${c}`)] : ['this token reaches no projects'],
  });
}
