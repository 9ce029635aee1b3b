// Deterministic demo data. (Minimal placeholder: the emulator issue grows it to the full catalog.)
import type { EmulatorOptions } from './http.js';
import { emptyProjectData, type EmulatorState } from './store.js';

export const DEMO_ORG_ID = '0b7e9a52-3c1d-4f5e-9a8b-1c2d3e4f5a6b';
export const OTHER_ORG_ID = '7d4c2b1a-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
export const DEMO_PROJECT_ID = '5f1c7e0a-2b3d-4c8e-9f01-a2b3c4d5e6f7';
export const SECOND_PROJECT_ID = '8a2d4f6b-1c3e-4a5b-8d7f-9e0a1b2c3d4e';
export const OTHER_PROJECT_ID = 'c3e5a7b9-4d6f-4e8a-9b1c-2d3e4f5a6b7c';
export const DEMO_ORG_TOKEN = 'demo-org-token';
export const DEMO_PROJECT_TOKEN = 'demo-project-token';

export function seedState(_options: EmulatorOptions): EmulatorState {
  const created = '2026-01-15T10:00:00.000Z';
  return {
    organizations: [
      { id: DEMO_ORG_ID, name: 'Demo Music Group' },
      { id: OTHER_ORG_ID, name: 'Other Records' },
    ],
    projects: [
      { id: DEMO_PROJECT_ID, name: 'Northern Lights Catalog', created_at: created, organization_id: DEMO_ORG_ID },
      { id: SECOND_PROJECT_ID, name: 'Harbor Sessions', created_at: created, organization_id: DEMO_ORG_ID },
      { id: OTHER_PROJECT_ID, name: 'Other Label Vault', created_at: created, organization_id: OTHER_ORG_ID },
    ],
    tokens: {
      [DEMO_ORG_TOKEN]: { organization_id: DEMO_ORG_ID },
      [DEMO_PROJECT_TOKEN]: { organization_id: DEMO_ORG_ID, project_id: DEMO_PROJECT_ID },
    },
    data: {
      [DEMO_PROJECT_ID]: emptyProjectData(),
      [SECOND_PROJECT_ID]: emptyProjectData(),
      [OTHER_PROJECT_ID]: emptyProjectData(),
    },
    uploads: [],
    next_staging_id: 1001,
    next_statement_id: 5001,
    sandboxes: {},
  };
}
