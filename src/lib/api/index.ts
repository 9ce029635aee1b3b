// The typed API: one module per resource family, all over the one HttpClient.
import type { HttpClient } from '../http/client.js';
import { createCatalogApi } from './catalog.js';
import { createProjectsApi } from './projects.js';
import type { createDocumentsApi } from './documents.js';
import type { createSandboxApi } from './sandbox.js';
import type { createTagsApi } from './tags.js';

export function createApi(http: HttpClient) {
  return {
    http,
    projects: createProjectsApi(http),
    catalog: createCatalogApi(http),
    // Loaded on their first call: uploads, downloads and event streams are code a list never runs.
    documents: loadedOnUse(async () => (await import('./documents.js')).createDocumentsApi(http)),
    sandbox: loadedOnUse(async () => (await import('./sandbox.js')).createSandboxApi(http)),
    tags: loadedOnUse(async () => (await import('./tags.js')).createTagsApi(http)),
  };
}

export type Api = ReturnType<typeof createApi>;
export type DocumentsApi = ReturnType<typeof createDocumentsApi>;
export type SandboxApi = ReturnType<typeof createSandboxApi>;
export type TagsApi = ReturnType<typeof createTagsApi>;

/** An API whose every member is a function returning a promise, so it can be called before it is loaded. */
type Deferrable<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;
};

/**
 * The API `make` resolves to, made on the first call of any of its methods (and once: an API may
 * keep state between calls, as documents' upload flow does). Every member must return a promise,
 * which Deferrable checks.
 */
function loadedOnUse<T extends Deferrable<T>>(make: () => Promise<T>): T {
  let made: Promise<T> | undefined;
  const methods = new Map<PropertyKey, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy({} as T, {
    get(_target, name) {
      // Not a thenable (an async function may return it), and nothing else but its methods.
      if (typeof name !== 'string' || name === 'then') return undefined;
      let method = methods.get(name);
      if (!method) {
        method = async (...args: unknown[]) => {
          made ??= make();
          const api = (await made) as Record<PropertyKey, (...args: unknown[]) => Promise<unknown>>;
          return api[name]!(...args);
        };
        methods.set(name, method);
      }
      return method;
    },
  });
}
