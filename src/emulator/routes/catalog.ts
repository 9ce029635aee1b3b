// docs/service.md, "Records": entities, statements, contracts, compositions, recordings, relations, writers and
// artists. Records are stored with bookkeeping fields (merged_into, parties, staging_id…); every
// response goes through a shape function: in the seed's forms (catalog/) the spec's fields only, in the
// spec's order, absent or null values dropped; in the deployed flavor the service's forms
// (../deployed/). Both read the same records through the same lookups.
import type { Route } from '../http.js';
import { listContracts, getContract } from './catalog/contracts.js';
import { listEntities, getEntity } from './catalog/entities.js';
import { personRoutes } from './catalog/people.js';
import { listRelations, getRelation } from './catalog/relations.js';
import { listStatements, getStatement } from './catalog/statements.js';
import { listCompositions, getComposition, listRecordings, getRecording } from './catalog/works.js';

export const catalogRoutes: Route[] = [
  { method: 'GET', pattern: '/v1/entities', handler: listEntities },
  { method: 'GET', pattern: '/v1/entities/:id', handler: getEntity },
  { method: 'GET', pattern: '/v1/statements', handler: listStatements },
  { method: 'GET', pattern: '/v1/statements/:id', handler: getStatement },
  { method: 'GET', pattern: '/v1/contracts', handler: listContracts },
  { method: 'GET', pattern: '/v1/contracts/:id', handler: getContract },
  { method: 'GET', pattern: '/v1/compositions', handler: listCompositions },
  { method: 'GET', pattern: '/v1/compositions/:id', handler: getComposition },
  { method: 'GET', pattern: '/v1/recordings', handler: listRecordings },
  { method: 'GET', pattern: '/v1/recordings/:id', handler: getRecording },
  { method: 'GET', pattern: '/v1/relations', handler: listRelations },
  { method: 'GET', pattern: '/v1/relations/:id', handler: getRelation },
  ...personRoutes('/v1/writers', 'writers', 'writer'),
  ...personRoutes('/v1/artists', 'artists', 'artist'),
];
