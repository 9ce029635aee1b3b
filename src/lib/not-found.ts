// "contract 123 not found in project Northern Lights Catalog (<id>)": a 404 that names what was
// looked for and where (the project's name costs one more request, on the error path only).
import type { Api } from './api/index.js';
import { NotFoundError } from './errors.js';

export async function notFoundIn(
  api: Api,
  what: string,
  id: string,
  projectId: string,
  cause: NotFoundError,
): Promise<NotFoundError> {
  const options = { status: 404, cause };
  // When the project cannot be looked up, its id still says where.
  const name = await api.projects.get(projectId).then(
    (project) => `${project.name} (${projectId})`,
    () => projectId,
  );
  return new NotFoundError(`${what} ${id} not found in project ${name}`, options);
}
