import type { GroupKind } from './object.js';
import { AWS_KINDS } from './providers/aws/aws-kinds.js';
import { CLUSTER_API_COLUMNS, type PrinterColumn } from './printing/printer-column.js';

/** Everything the API, the store and the router need to know about a kind. */
export interface KindInfo extends GroupKind {
  /** Served versions; the first is the storage version objects are converted to. */
  versions: readonly string[];
  plural: string;
  namespaced: boolean;
  /** Has a status subresource (`/status`). */
  statusSubresource: boolean;
  /** Secret-like: `data` is encrypted at rest and never returned by list calls. */
  sensitive?: boolean;
  /** Short names (`kubectl get kcp`), as the kind's CRD declares them. */
  shortNames?: readonly string[];
  /**
   * Served for reading only (get, list, watch; lists are empty): capless has no controller for the
   * kind, but tools that list it (clusterctl describe lists MachinePools) must find it. Writes are a 405.
   */
  readOnly?: boolean;
  /** Columns of `kubectl get` (Table responses, the served CRD); without any: Name and Age. */
  printerColumns?: readonly PrinterColumn[];
  /**
   * Fields a kind without a spec keeps at the top level of the object, beside apiVersion, kind
   * and metadata (clusterctl's inventory kinds). Any other unknown top-level field is refused.
   */
  topLevelFields?: readonly string[];
  /**
   * How `clusterctl move` takes objects of the kind that no Cluster owns (the label its CRD
   * carries): `move` the objects, `move-hierarchy` them with everything they own. Without it they
   * move only as part of a Cluster's, ClusterClass's or ClusterResourceSet's hierarchy.
   */
  clusterctlMove?: 'move' | 'move-hierarchy';
  /** Has a scale subresource (`/scale`, `kubectl scale`, the cluster autoscaler) over these fields. */
  scale?: ScaleSubresource;
}

/**
 * A CRD's `subresources.scale`: where the desired and current replica counts and the label
 * selector of what is counted live in the object (dot-separated paths, as the CRD writes them).
 */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** The scale subresource every Cluster API kind with replicas declares. */
const REPLICAS_SCALE: ScaleSubresource = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };

const CORE = 'cluster.x-k8s.io';
const BOOTSTRAP = 'bootstrap.cluster.x-k8s.io';
const CONTROL_PLANE = 'controlplane.cluster.x-k8s.io';
const INFRASTRUCTURE = 'infrastructure.cluster.x-k8s.io';

function kind(group: string, name: string, plural: string, versions: readonly string[], extra: Partial<KindInfo> = {}): KindInfo {
  return { group, kind: name, plural, versions, namespaced: true, statusSubresource: true, ...extra };
}

const V1BETA2 = ['v1beta2', 'v1beta1'] as const;

/** Kinds capless serves out of the box. Providers add theirs with `registerKind`. */
export const BUILTIN_KINDS: readonly KindInfo[] = [
  kind('', 'Secret', 'secrets', ['v1'], { statusSubresource: false, sensitive: true }),
  kind('', 'ConfigMap', 'configmaps', ['v1'], { statusSubresource: false, shortNames: ['cm'] }),
  kind('', 'Namespace', 'namespaces', ['v1'], { namespaced: false, statusSubresource: false, shortNames: ['ns'], printerColumns: CLUSTER_API_COLUMNS.Namespace }),
  kind(CORE, 'Cluster', 'clusters', V1BETA2, { shortNames: ['cl'], printerColumns: CLUSTER_API_COLUMNS.Cluster }),
  kind(CORE, 'Machine', 'machines', V1BETA2, { shortNames: ['ma'], printerColumns: CLUSTER_API_COLUMNS.Machine }),
  kind(CORE, 'MachineSet', 'machinesets', V1BETA2, { scale: REPLICAS_SCALE, shortNames: ['ms'], printerColumns: CLUSTER_API_COLUMNS.MachineSet }),
  kind(CORE, 'MachineDeployment', 'machinedeployments', V1BETA2, { scale: REPLICAS_SCALE, shortNames: ['md'], printerColumns: CLUSTER_API_COLUMNS.MachineDeployment }),
  kind(CORE, 'MachinePool', 'machinepools', V1BETA2, { readOnly: true, scale: REPLICAS_SCALE, shortNames: ['mp'] }),
  kind(CORE, 'MachineHealthCheck', 'machinehealthchecks', V1BETA2, { shortNames: ['mhc', 'mhcs'], printerColumns: CLUSTER_API_COLUMNS.MachineHealthCheck }),
  // No controller of its own: the Machine controller's Node drain reads the rules (its CRD has no short name).
  kind(CORE, 'MachineDrainRule', 'machinedrainrules', V1BETA2, { statusSubresource: false, printerColumns: CLUSTER_API_COLUMNS.MachineDrainRule }),
  kind(CORE, 'ClusterClass', 'clusterclasses', V1BETA2, { shortNames: ['cc'], printerColumns: CLUSTER_API_COLUMNS.ClusterClass }),
  kind(BOOTSTRAP, 'KubeadmConfig', 'kubeadmconfigs', V1BETA2, { printerColumns: CLUSTER_API_COLUMNS.KubeadmConfig }),
  kind(BOOTSTRAP, 'KubeadmConfigTemplate', 'kubeadmconfigtemplates', V1BETA2, { statusSubresource: false, printerColumns: CLUSTER_API_COLUMNS.KubeadmConfigTemplate }),
  kind(CONTROL_PLANE, 'KubeadmControlPlane', 'kubeadmcontrolplanes', V1BETA2, { scale: REPLICAS_SCALE, shortNames: ['kcp'], printerColumns: CLUSTER_API_COLUMNS.KubeadmControlPlane }),
  kind(CONTROL_PLANE, 'KubeadmControlPlaneTemplate', 'kubeadmcontrolplanetemplates', V1BETA2, { statusSubresource: false, shortNames: ['kcpt'] }),
  kind(INFRASTRUCTURE, 'InMemoryCluster', 'inmemoryclusters', ['v1beta2']),
  kind(INFRASTRUCTURE, 'InMemoryClusterTemplate', 'inmemoryclustertemplates', ['v1beta2'], { statusSubresource: false }),
  kind(INFRASTRUCTURE, 'InMemoryMachine', 'inmemorymachines', ['v1beta2']),
  kind(INFRASTRUCTURE, 'InMemoryMachineTemplate', 'inmemorymachinetemplates', ['v1beta2'], { statusSubresource: false }),
  kind(INFRASTRUCTURE, 'DockerCluster', 'dockerclusters', V1BETA2),
  kind(INFRASTRUCTURE, 'DockerClusterTemplate', 'dockerclustertemplates', V1BETA2, { statusSubresource: false }),
  kind(INFRASTRUCTURE, 'DockerMachine', 'dockermachines', V1BETA2),
  kind(INFRASTRUCTURE, 'DockerMachineTemplate', 'dockermachinetemplates', V1BETA2, { statusSubresource: false }),
  kind(INFRASTRUCTURE, 'DevCluster', 'devclusters', ['v1beta2']),
  kind(INFRASTRUCTURE, 'DevClusterTemplate', 'devclustertemplates', ['v1beta2'], { statusSubresource: false }),
  kind(INFRASTRUCTURE, 'DevMachine', 'devmachines', ['v1beta2']),
  kind(INFRASTRUCTURE, 'DevMachineTemplate', 'devmachinetemplates', ['v1beta2'], { statusSubresource: false }),
  kind(INFRASTRUCTURE, 'DevMachinePoolTemplate', 'devmachinepooltemplates', ['v1beta2'], { statusSubresource: false }),
  ...AWS_KINDS,
  kind('ipam.cluster.x-k8s.io', 'IPAddressClaim', 'ipaddressclaims', V1BETA2, { printerColumns: CLUSTER_API_COLUMNS.IPAddressClaim }),
  kind('ipam.cluster.x-k8s.io', 'IPAddress', 'ipaddresses', V1BETA2, { statusSubresource: false, printerColumns: CLUSTER_API_COLUMNS.IPAddress }),
  // The in-cluster IPAM provider labels its pool CRDs move-hierarchy: a pool moves with its addresses.
  kind('ipam.cluster.x-k8s.io', 'InClusterIPPool', 'inclusterippools', ['v1alpha2'], { clusterctlMove: 'move-hierarchy' }),
  kind('ipam.cluster.x-k8s.io', 'GlobalInClusterIPPool', 'globalinclusterippools', ['v1alpha2'], { namespaced: false, clusterctlMove: 'move-hierarchy' }),
  kind('addons.cluster.x-k8s.io', 'ClusterResourceSet', 'clusterresourcesets', V1BETA2),
  kind('addons.cluster.x-k8s.io', 'ClusterResourceSetBinding', 'clusterresourcesetbindings', V1BETA2, { statusSubresource: false }),
  kind('runtime.cluster.x-k8s.io', 'ExtensionConfig', 'extensionconfigs', ['v1beta2'], { namespaced: false, shortNames: ['ext'], printerColumns: CLUSTER_API_COLUMNS.ExtensionConfig }),
  kind('clusterctl.cluster.x-k8s.io', 'Metadata', 'metadata', ['v1alpha3'], { statusSubresource: false, topLevelFields: ['releaseSeries'] }),
  kind('clusterctl.cluster.x-k8s.io', 'Provider', 'providers', ['v1alpha3'], {
    statusSubresource: false,
    printerColumns: CLUSTER_API_COLUMNS.Provider,
    topLevelFields: ['providerName', 'type', 'version', 'watchedNamespace'],
  }),
];

/** A lookup over kinds; immutable once built so handlers can share it. */
export class KindRegistry {
  private readonly byGroupKind = new Map<string, KindInfo>();
  private readonly byPlural = new Map<string, KindInfo>();
  private added = 0;

  constructor(kinds: readonly KindInfo[] = BUILTIN_KINDS) {
    for (const info of kinds) this.add(info);
  }

  add(info: KindInfo): void {
    this.byGroupKind.set(`${info.group}/${info.kind}`, info);
    this.byPlural.set(`${info.group}/${info.plural}`, info);
    this.added++;
  }

  /** Moves with every `add`: what is derived from the kinds (an OpenAPI document) is current while it holds. */
  get revision(): number {
    return this.added;
  }

  get(group: string, kindName: string): KindInfo | undefined {
    return this.byGroupKind.get(`${group}/${kindName}`);
  }

  byResource(group: string, plural: string): KindInfo | undefined {
    return this.byPlural.get(`${group}/${plural}`);
  }

  all(): KindInfo[] {
    return [...this.byGroupKind.values()];
  }

  groups(): string[] {
    return [...new Set(this.all().map((k) => k.group))];
  }
}

export const defaultKinds = new KindRegistry();
