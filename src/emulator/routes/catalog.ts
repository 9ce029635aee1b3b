// docs/service.md, "Records": entities, statements, contracts, compositions, recordings, relations, writers and
// artists. Records are stored with bookkeeping fields (merged_into, parties, staging_id…); every
// response goes through a shape function: in the seed's forms (catalog/) the spec's fields only, in the
// spec's order, absent or null values dropped; in the deployed flavor the service's forms
// (../deployed/). Both read the same records through the same lookups.
import type { Handler, Route } from '../http.js';
import { listContracts, getContract } from './catalog/contracts.js';
import { listEntities, getEntity } from './catalog/entities.js';
import { personRoutes } from './catalog/people.js';
import { listRelations, getRelation } from './catalog/relations.js';
import { listStatements, getStatement } from './catalog/statements.js';
import { listCompositions, getComposition, listRecordings, getRecording } from './catalog/works.js';

/** A resource's list, and one of its records by id. */
const listAndGet = (resource: string, list: Handler, get: Handler): Route[] => [
  { method: 'GET', pattern: `/v1/${resource}`, handler: list },
  { method: 'GET', pattern: `/v1/${resource}/:id`, handler: get },
];

export const catalogRoutes: Route[] = [
  ...listAndGet('entities', listEntities, getEntity),
  ...listAndGet('statements', listStatements, getStatement),
  ...listAndGet('contracts', listContracts, getContract),
  ...listAndGet('compositions', listCompositions, getComposition),
  ...listAndGet('recordings', listRecordings, getRecording),
  ...listAndGet('relations', listRelations, getRelation),
  ...personRoutes('/v1/writers', 'writers', 'writer'),
  ...personRoutes('/v1/artists', 'artists', 'artist'),
];
