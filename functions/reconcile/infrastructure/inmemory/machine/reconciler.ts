import { INFRASTRUCTURE_GROUP } from '../../../../../shared/contracts/providers/builtin-providers.js';
import type { ReconcilerDefinition } from '../../../engine/skeleton/types.js';
import { IPAM_GROUP } from '../../../../../shared/contracts/schemas/groups.js';
import { ipAddressClaimsPhase } from './ip-address-claims.js';
import { ownerMachinePhase, provisionPhase, simulatedKubeadmPhase } from './phases.js';
import { type InMemoryMachineScope, createInMemoryMachineScope } from './scope.js';
import { computeInMemoryMachineStatus } from './status.js';
import { adoptingMachineWatch } from '../../../engine/references/adopting-machine-watch.js';

/**
 * InMemoryMachine: a simulated VM that comes up `spec.startupSeconds` (default 2) after creation
 * once its Machine has bootstrap data. No finalizer: deleting it removes it at once.
 * Its Machine's changes (bootstrap data, failure domain) reach it through the Machine's infrastructureRef,
 * as Cluster API's MachineToInfrastructureMapFunc does; no polling.
 */
export const inMemoryMachineReconciler: ReconcilerDefinition<InMemoryMachineScope> = {
  kind: { group: INFRASTRUCTURE_GROUP, kind: 'InMemoryMachine' },
  // provisionPhase gives it its providerID, written with the provisioned status in one write.
  fillsOwnSpec: ['spec.providerID'],
  watches: [
    // What the simulated VM reads of its Machine: bootstrap data, failure domain, its controller.
    adoptingMachineWatch('spec.infrastructureRef', ['spec.bootstrap.dataSecretName', 'spec.failureDomain', 'metadata.ownerReferences']),
    // Its IPAddressClaims (spec.addressesFromPools): an address arriving wakes it.
    { kind: { group: IPAM_GROUP, kind: 'IPAddressClaim' }, by: 'owner', changes: ['status.addressRef'] },
  ],
  createScope: createInMemoryMachineScope,
  phases: [ownerMachinePhase, ipAddressClaimsPhase, provisionPhase, simulatedKubeadmPhase],
  deletePhases: [],
  computeStatus: computeInMemoryMachineStatus,
};
