/** The kubeadm bootstrap provider: KubeadmConfig → bootstrap data Secret (v1beta2 contract). */

import { ANNOTATION_CERTIFICATES_EXPIRY } from '../../../../shared/contracts/object.js';
import type { ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { BOOTSTRAP_GROUP, CORE_GROUP } from '../common/well-known.js';
import { chooseRole, findDataSecret, renderDataSecret, resolveOwner, waitForClusterInfrastructure } from './phases.js';
import { deleteOwnedSecrets } from './delete-phases.js';
import { type KubeadmConfigScope, createKubeadmConfigScope } from './scope.js';
import { kubeadmConfigStatus } from './status.js';
import { adoptingMachineWatch } from '../../engine/references/adopting-machine-watch.js';

/**
 * Not in upstream CABPK: the finalizer lets the config delete its own Secrets, so Secrets are
 * never garbage-collected by functions without the Secrets permission.
 */
export const KUBEADM_CONFIG_FINALIZER = 'kubeadmconfig.bootstrap.cluster.x-k8s.io';

export const kubeadmConfigReconciler: ReconcilerDefinition<KubeadmConfigScope> = {
  kind: { group: BOOTSTRAP_GROUP, kind: 'KubeadmConfig' },
  finalizer: KUBEADM_CONFIG_FINALIZER,
  // Recorded by the control plane for the Machine to read (ADR 0160); nothing the config acts on.
  ignoresOwnAnnotations: [ANNOTATION_CERTIFICATES_EXPIRY],
  watches: [
    // Cluster changes (infrastructure ready, control plane initialized) wake every config of
    // the cluster; a Machine wakes only the config it names. A stale init lock (its holder
    // Machine gone) is noticed on the losers' 30 s requeue, as in Cluster API.
    {
      kind: { group: CORE_GROUP, kind: 'Cluster' },
      by: 'clusterLabel',
      changes: ['spec', 'status.initialization'],
    },
    adoptingMachineWatch('spec.bootstrap.configRef', ['spec.version', 'spec.bootstrap.configRef', 'metadata.labels']),
  ],
  createScope: createKubeadmConfigScope,
  phases: [findDataSecret, resolveOwner, waitForClusterInfrastructure, chooseRole, renderDataSecret],
  deletePhases: [deleteOwnedSecrets],
  computeStatus: (scope) => kubeadmConfigStatus({ dataSecretName: scope.dataSecretName }),
};
