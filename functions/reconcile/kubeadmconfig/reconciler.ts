/** The kubeadm bootstrap provider: KubeadmConfig → bootstrap data Secret (v1beta2 contract). */

import type { ReconcilerDefinition } from '../skeleton/types.js';
import { BOOTSTRAP_GROUP, CORE_GROUP } from '../kubeadm-common/well-known.js';
import { chooseRole, findDataSecret, renderDataSecret, resolveOwner, waitForClusterInfrastructure } from './phases.js';
import { type KubeadmConfigScope, createKubeadmConfigScope } from './scope.js';
import { kubeadmConfigStatus } from './status.js';

export const kubeadmConfigReconciler: ReconcilerDefinition<KubeadmConfigScope> = {
  kind: { group: BOOTSTRAP_GROUP, kind: 'KubeadmConfig' },
  watches: [
    // The Machine controller labels and owns the config; Cluster initialization and a Machine's
    // disappearance (a stale init lock) wake every config of the cluster.
    { kind: { group: CORE_GROUP, kind: 'Cluster' }, by: 'clusterLabel' },
    { kind: { group: CORE_GROUP, kind: 'Machine' }, by: 'clusterLabel' },
  ],
  createScope: createKubeadmConfigScope,
  phases: [findDataSecret, resolveOwner, waitForClusterInfrastructure, chooseRole, renderDataSecret],
  deletePhases: [],
  computeStatus: (scope) => kubeadmConfigStatus({ dataSecretName: scope.dataSecretName }),
};
