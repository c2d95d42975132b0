/** IPAddressClaim, reconciled by the in-cluster IPAM provider for InClusterIPPool and GlobalInClusterIPPool. */

import type { StoredObject } from '../../../../shared/contracts/object.js';
import { ipAddressClaimSchema } from '../../../../shared/contracts/schemas/ipam/ip-address.js';
import type { ReconcileContext, ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { FINALIZER_RELEASE_ADDRESS, IP_ADDRESS_CLAIM_KIND, IP_ADDRESS_KIND } from '../well-known.js';
import { allocatePhase, clusterPausedPhase, existingAddressPhase, releasePhase, servedPoolPhase } from './phases.js';
import { type ClaimScope, createClaimScope } from './scope.js';
import { computeClaimStatus } from './status.js';

export const ipAddressClaimReconciler: ReconcilerDefinition<ClaimScope> = {
  kind: IP_ADDRESS_CLAIM_KIND,
  finalizer: FINALIZER_RELEASE_ADDRESS,
  watches: [{ kind: IP_ADDRESS_KIND, by: 'owner' }],
  createScope: (ctx: ReconcileContext, object: StoredObject) => {
    const parsed = ipAddressClaimSchema.safeParse(object);
    return createClaimScope(ctx, object, parsed.success ? parsed.data : undefined);
  },
  phases: [servedPoolPhase, clusterPausedPhase, existingAddressPhase, allocatePhase],
  deletePhases: [releasePhase],
  computeStatus: computeClaimStatus,
};
