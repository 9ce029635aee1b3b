// "contract 123 not found in project Northern Lights Catalog (<id>)": a 404 that names what was
// looked for and where (the project's name costs one more request, on the error path only).
import type { Api } from './api/index.js';
import { NotFoundError } from './errors.js';
import { unknownProject } from './project-name.js';

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
    (error: unknown) => (error instanceof NotFoundError ? undefined : projectId),
  );
  // The project itself is not there: that is the 404 to explain.
  if (name === undefined) return unknownProject(api, projectId, cause);
  return new NotFoundError(`${what} ${id} not found in project ${name}`, options);
}

/**
 * A 404 from an endpoint that is not a record's (a search, a list): either the project is unknown
 * (said, with the projects the token reaches) or the service at `apiUrl` lacks the endpoint, which
 * is named as the feature it misses; the deployed service has every one pds asks for.
 */
export async function missingFeature(
  api: Api,
  apiUrl: string,
  feature: string,
  projectId: string,
  cause: NotFoundError,
): Promise<NotFoundError> {
  const project = await api.projects.get(projectId).then(
    () => true,
    (error: unknown) => (error instanceof NotFoundError ? false : undefined),
  );
  if (project === false) return unknownProject(api, projectId, cause);
  return new NotFoundError(`the service at ${apiUrl} has no ${feature} (its answer was 404)`, {
    status: 404,
    cause,
    details: ['the deployed service has it', `the service said: ${cause.message}`],
  });
}
