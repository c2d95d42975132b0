import type { GroupKind } from '../../shared/contracts/object.js';
import type { ProviderEventRule, ProviderPermission } from '../../shared/contracts/provider-contract.js';
import { AWS_RECONCILED_KINDS } from '../../shared/contracts/providers/aws/aws-provider.js';

/** A kind the control plane reconciles: it gets one function and one dead-letter queue (its work goes through the shared queue, ADR 0110). */
export interface ReconciledKind extends GroupKind {
  /**
   * The reconciler reads and writes Secrets (bootstrap data, CA keys, kubeconfigs). Only these
   * functions get IAM access to the Secret partitions of the table.
   */
  readonly needsSecrets: boolean;
  /**
   * The reconciler reaches workload clusters with their `<cluster>-kubeconfig` Secrets: it may get
   * Secrets by name (GetItem only: no list, no write). Implied by `needsSecrets`.
   */
  readonly readsKubeconfigs?: boolean;
  /** IAM statements the kind's reconciler needs beyond the object table (declared by its provider). */
  readonly permissions?: readonly ProviderPermission[];
  /** Cloud events (EventBridge rules) delivered to the shared work queue for the kind's reconciler. */
  readonly eventRules?: readonly ProviderEventRule[];
}

/** The kinds capless reconciles out of the box (one function and one dead-letter queue each). */
export const RECONCILED_KINDS: readonly ReconciledKind[] = [
  { group: 'cluster.x-k8s.io', kind: 'Cluster', needsSecrets: true },
  { group: 'cluster.x-k8s.io', kind: 'ClusterClass', needsSecrets: false },
  { group: 'cluster.x-k8s.io', kind: 'Machine', needsSecrets: false, readsKubeconfigs: true },
  { group: 'cluster.x-k8s.io', kind: 'MachineSet', needsSecrets: false },
  { group: 'cluster.x-k8s.io', kind: 'MachineDeployment', needsSecrets: false },
  { group: 'cluster.x-k8s.io', kind: 'MachineHealthCheck', needsSecrets: false, readsKubeconfigs: true },
  { group: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', needsSecrets: true },
  { group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', needsSecrets: true },
  { group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryCluster', needsSecrets: false },
  { group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', needsSecrets: false },
  { group: 'ipam.cluster.x-k8s.io', kind: 'IPAddressClaim', needsSecrets: false },
  { group: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', needsSecrets: false },
  { group: 'ipam.cluster.x-k8s.io', kind: 'GlobalInClusterIPPool', needsSecrets: false },
  { group: 'infrastructure.cluster.x-k8s.io', kind: 'DevCluster', needsSecrets: false },
  { group: 'infrastructure.cluster.x-k8s.io', kind: 'DevMachine', needsSecrets: false },
  ...AWS_RECONCILED_KINDS,
  { group: 'runtime.cluster.x-k8s.io', kind: 'ExtensionConfig', needsSecrets: true },
  // Reads its Secret resources and the clusters' kubeconfigs by name; writes only bindings.
  { group: 'addons.cluster.x-k8s.io', kind: 'ClusterResourceSet', needsSecrets: false, readsKubeconfigs: true },
];

/** `<group>/<Kind>`: the key of RECONCILER_FUNCTIONS and DEAD_LETTER_QUEUE_URLS, and the value of RECONCILE_KIND. */
export function reconcileKindKey(kind: GroupKind): string {
  return `${kind.group}/${kind.kind}`;
}
