// A project named by its name (`pds use "Northern Lights Catalog"`, `-p "northern lights catalog"`).
import type { Api } from './api/index.js';
import { NotFoundError, UsageError } from './errors.js';
import type { Project } from './schemas.js';

/** At most this many near names are suggested. */
const MAX_SUGGESTIONS = 3;

/**
 * The project of this name: the one named exactly so, else the only one named so in any case
 * ("northern lights catalog"). Nothing nearer is ever picked: a near match picked silently would
 * aim every later command at the wrong project. When no project (or several) match, the error
 * lists the candidates, the closest names first.
 */
export async function projectByName(name: string, api: Api): Promise<Project> {
  const projects = await api.projects.list();
  const exact = projects.filter((p) => p.name === name);
  const matches =
    exact.length > 0 ? exact : projects.filter((p) => typeof p.name === 'string' && sameIgnoringCase(p.name, name));
  const [only] = matches;
  if (matches.length === 1 && only) return only;
  const line = (p: Project) => `${p.id}  ${p.name ?? ''}`;
  if (matches.length > 1) {
    throw new UsageError(`${matches.length} projects are named '${name}': use the id`, { details: matches.map(line) });
  }
  if (projects.length === 0)
    throw new UsageError(`no project named '${name}'`, { details: ['this token reaches no projects'] });
  const near = closest(name, projects);
  throw new UsageError(`no project named '${name}'`, {
    details: [
      near.length > 0 ? 'did you mean:' : 'projects this token reaches:',
      ...(near.length > 0 ? near : projects).map((p) => `  ${line(p)}`),
    ],
  });
}

function sameIgnoringCase(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
}

/**
 * The projects whose names are a few edits from `name` (case aside): at most a third of the name's
 * length, so "Harbour Sesions" finds "Harbor Sessions" and "Catalog" finds nothing unrelated; or
 * that hold it as a whole word, so "Harbor" finds "Harbor Sessions".
 */
function closest(name: string, projects: readonly Project[]): Project[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  // A name that holds the given one as a word ("Harbor" of "Harbor Sessions") is nearest of all.
  const holds = (other: string) => wanted.length >= 3 && other.split(/\s+/).includes(wanted);
  return projects
    .filter((project) => typeof project.name === 'string' && project.name !== '')
    .map((project) => {
      const other = (project.name ?? '').toLowerCase();
      return { project, distance: holds(other) ? 0 : editDistance(wanted, other) };
    })
    .filter(({ distance }) => distance <= limit)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, MAX_SUGGESTIONS)
    .map(({ project }) => project);
}

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * A 404 because the project itself is not there (an unknown or unreachable uuid): it says so and
 * lists the projects the token reaches, so the next command can name one of them.
 */
export async function unknownProject(api: Api, projectId: string, cause: Error): Promise<NotFoundError> {
  const projects = await api.projects.list().catch(() => undefined);
  const details =
    projects === undefined
      ? []
      : projects.length === 0
        ? ['this token reaches no projects']
        : ['projects this token reaches:', ...projects.map((p) => `  ${p.id}  ${p.name ?? ''}`)];
  return new NotFoundError(`project ${projectId} not found`, { status: 404, cause, details });
}
