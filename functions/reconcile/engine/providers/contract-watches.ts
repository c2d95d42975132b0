/**
 * Which core kinds react to which provider roles: a Machine to its InfraMachine and
 * BootstrapConfig, a Cluster to its InfraCluster and ControlPlane (each through the provider
 * object's controller ownerReference). The registry turns these into `owner` watches for every
 * registered provider kind, so an external provider's kinds are watched without a core change.
 */

import type { GroupKind } from '../../../../shared/contracts/object.js';
import { sameGroupKind } from '../../../../shared/contracts/object.js';
import type { ContractRole, ProviderKindContract } from '../../../../shared/contracts/provider-contract.js';
import type { AnyReconciler, ReferrerField, Watch } from '../skeleton/types.js';

const CORE = 'cluster.x-k8s.io';

export const CONTRACT_WATCHES: ReadonlyArray<{ watcher: GroupKind; roles: readonly ContractRole[] }> = [
  { watcher: { group: CORE, kind: 'Machine' }, roles: ['InfrastructureMachine', 'BootstrapConfig'] },
  { watcher: { group: CORE, kind: 'Cluster' }, roles: ['InfrastructureCluster', 'ControlPlane'] },
];

/**
 * Roles a watcher also follows by the reference field that names them (before adoption), either
 * the role's kind itself or, with `template`, its `<Kind>Template` (MachineSets and control
 * planes name templates, so one created after them wakes them at once). Only a creation is
 * looked up (ADR 0141): the reconcile it wakes reads the object as it is then and adopts it, and
 * an adopted one reaches the watcher by its owner. A later write to one not yet adopted finds a
 * watcher that does not exist yet (its own creation wakes it) or one whose reconcile is about to
 * read it; a template's later writes and its removal change nothing its watchers read.
 */
export const CONTRACT_REFERRER_WATCHES: ReadonlyArray<{ watcher: GroupKind; role: ContractRole; field: ReferrerField; template?: true }> = [
  { watcher: { group: CORE, kind: 'Cluster' }, role: 'InfrastructureCluster', field: 'spec.infrastructureRef' },
  { watcher: { group: CORE, kind: 'Cluster' }, role: 'ControlPlane', field: 'spec.controlPlaneRef' },
  { watcher: { group: CORE, kind: 'MachineSet' }, role: 'InfrastructureMachine', field: 'spec.template.spec.infrastructureRef', template: true },
  { watcher: { group: CORE, kind: 'MachineSet' }, role: 'BootstrapConfig', field: 'spec.template.spec.bootstrap.configRef', template: true },
  { watcher: { group: CORE, kind: 'MachineDeployment' }, role: 'InfrastructureMachine', field: 'spec.template.spec.infrastructureRef', template: true },
  { watcher: { group: CORE, kind: 'MachineDeployment' }, role: 'BootstrapConfig', field: 'spec.template.spec.bootstrap.configRef', template: true },
  {
    watcher: { group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane' },
    role: 'InfrastructureMachine',
    field: 'spec.machineTemplate.spec.infrastructureRef',
    template: true,
  },
];

/**
 * Roles a watcher follows through the cluster-name label, for the listed fields only: a
 * MachineSet whose scale-up the preflight checks hold (the control plane is provisioning or
 * upgrading) goes on when its control plane reports a new version, instead of polling every 15 s
 * as Cluster API does. A control plane without the label is found by the poll alone.
 */
export const CONTRACT_CLUSTER_LABEL_WATCHES: ReadonlyArray<{ watcher: GroupKind; role: ContractRole; changes: readonly string[] }> = [
  { watcher: { group: CORE, kind: 'MachineSet' }, role: 'ControlPlane', changes: ['status.version', 'status.versions'] },
];

/** The reconciler with an `owner` watch added for each contract kind whose role it follows. */
export function withContractWatches(reconciler: AnyReconciler, contracts: readonly ProviderKindContract[]): AnyReconciler {
  const roles = CONTRACT_WATCHES.find((w) => sameGroupKind(w.watcher, reconciler.kind))?.roles ?? [];
  const extra: Watch[] = contracts
    .filter((c) => roles.includes(c.role))
    .filter((c) => !reconciler.watches.some((w) => w.by === 'owner' && sameGroupKind(w.kind, c)))
    .map((c) => ({ kind: { group: c.group, kind: c.kind }, by: 'owner' }));
  const referrers: Watch[] = CONTRACT_REFERRER_WATCHES.filter((w) => sameGroupKind(w.watcher, reconciler.kind)).flatMap((w) =>
    contracts
      .filter((c) => c.role === w.role)
      .flatMap((c): GroupKind[] => (w.template ? (c.templateKind ? [{ group: c.group, kind: c.templateKind }] : []) : [{ group: c.group, kind: c.kind }]))
      .filter((k) => !reconciler.watches.some((x) => x.by === 'referrer' && x.field === w.field && sameGroupKind(x.kind, k)))
      .map((k): Watch => ({ kind: k, by: 'referrer', field: w.field, on: ['INSERT'] })),
  );
  const labelled: Watch[] = CONTRACT_CLUSTER_LABEL_WATCHES.filter((w) => sameGroupKind(w.watcher, reconciler.kind)).flatMap((w) =>
    contracts
      .filter((c) => c.role === w.role)
      .filter((c) => !reconciler.watches.some((x) => x.by === 'clusterLabel' && sameGroupKind(x.kind, c)))
      .map((c): Watch => ({ kind: { group: c.group, kind: c.kind }, by: 'clusterLabel', on: ['MODIFY'], changes: w.changes })),
  );
  const added = [...extra, ...referrers, ...labelled];
  return added.length === 0 ? reconciler : { ...reconciler, watches: [...reconciler.watches, ...added] };
}
