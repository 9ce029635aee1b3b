// The typed API: one module per resource family, all over the one HttpClient.
import type { HttpClient } from '../http.js';
import { createCatalogApi } from './catalog.js';
import { createProjectsApi } from './projects.js';
import { createDocumentsApi } from './documents.js';
import { createSandboxApi } from './sandbox.js';
import { createTagsApi } from './tags.js';

export function createApi(http: HttpClient) {
  return {
    http,
    projects: createProjectsApi(http),
    catalog: createCatalogApi(http),
    documents: createDocumentsApi(http),
    sandbox: createSandboxApi(http),
    tags: createTagsApi(http),
  };
}

export type Api = ReturnType<typeof createApi>;
