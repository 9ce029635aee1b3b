// Which ids the sandbox workspace writes: the store's own (`art_00037`: the seed and current
// flavors, whose API answers to them) or the deployed service's numbers (`3000037`: the deployed
// flavor, whose API answers to nothing else). Either way, an id read in the sandbox is one the same
// emulator's API finds: in file names, in a record's own file and in every reference to it.
import { deployedForms, type EmulatorOptions } from '../http.js';
import { deployedId, documentId, type NumberedKind } from '../deployed/ids.js';
import { entityByUuid } from '../deployed/indexes.js';
import type { EntityRecord } from '../store.js';

export type RecordKind = NumberedKind | 'contract';

export interface WorkspaceIds {
  /** Tells apart the cached workspaces built with each. */
  readonly name: string;
  /** The id of a record of `kind`, from its store id. */
  of(kind: RecordKind, storeId: string): string | number;
  /** A statement's issuer, which the store names by the entity's internal_uuid; undefined: none to name. */
  issuer(entities: readonly EntityRecord[], uuid: string): string | number | undefined;
}

/** The store's ids, as they are. */
export const STORE_IDS: WorkspaceIds = {
  name: 'store',
  of: (_kind, storeId) => storeId,
  issuer: (_entities, uuid) => uuid,
};

/** The deployed service's numbers (src/emulator/deployed/ids.ts). */
const DEPLOYED_IDS: WorkspaceIds = {
  name: 'deployed',
  of(kind, storeId) {
    const id = kind === 'contract' ? documentId(storeId) : deployedId(kind, storeId);
    // A store id of a form the seed never writes (a hand-edited --data file) has no number: kept as is.
    return Number.isSafeInteger(id) ? id : storeId;
  },
  // As the API's statement names it: the issuer's number, left out when no entity has that uuid.
  issuer(entities, uuid) {
    const entity = entityByUuid(entities, uuid);
    return entity && DEPLOYED_IDS.of('entity', entity.id);
  },
};

/** The ids the API of an emulator with these options answers to. */
export const workspaceIdsFor = (options: Pick<EmulatorOptions, 'flavor'>): WorkspaceIds =>
  deployedForms(options) ? DEPLOYED_IDS : STORE_IDS;
