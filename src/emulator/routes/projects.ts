// 4.1 Projects: list per token scope, get, and search (search lives with the catalog it reads).
import { HttpError, projectInScope, type Handler } from '../http.js';
import type { Route } from '../server.js';

const listProjects: Handler = (ctx) => {
  const visible = ctx.state.projects.filter(
    (p) => p.organization_id === ctx.scope.organization_id && (!ctx.scope.project_id || ctx.scope.project_id === p.id),
  );
  return { body: { data: visible } };
};

const getProject: Handler = (ctx) => {
  const id = ctx.params.project_id ?? '';
  const project = ctx.state.projects.find((p) => p.id === id);
  if (!project || project.organization_id !== ctx.scope.organization_id) {
    throw new HttpError(404, 'project not found');
  }
  return { body: { data: projectInScope(ctx, id, 'project_id') } };
};

export const projectRoutes: Route[] = [
  { method: 'GET', pattern: '/v1/projects', handler: listProjects },
  { method: 'GET', pattern: '/v1/projects/:project_id', handler: getProject },
];
