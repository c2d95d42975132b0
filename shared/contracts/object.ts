/**
 * The Kubernetes object model every capless kind shares. Pure types and helpers:
 * this folder imports nothing from AWS.
 */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** Server-side apply's record of who set which fields (functions/api/apply); kept as written. */
  managedFields?: unknown[];
}

/** Any stored object. Kinds narrow `spec`/`status` through their own schemas. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  /** Secrets only. */
  type?: string;
  /** Secrets only: base64 values. */
  data?: Record<string, string>;
}

/** An object as the store returns it: server-set metadata is always present. */
export interface StoredObject extends KubeObject {
  metadata: ObjectMeta & {
    namespace: string;
    uid: string;
    resourceVersion: string;
    generation: number;
    creationTimestamp: string;
  };
}

/** Identity of an object: group ("" for the core group), kind, namespace, name. */
export interface ObjectKey {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

export interface GroupKind {
  group: string;
  kind: string;
}

export const DEFAULT_NAMESPACE = 'default';

/** Where the store keeps cluster-scoped objects (GlobalInClusterIPPool); the API shows them without a namespace. */
export const CLUSTER_SCOPE_NAMESPACE = DEFAULT_NAMESPACE;

export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

export function versionOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? apiVersion : apiVersion.slice(slash + 1);
}

export function keyOf(obj: KubeObject): ObjectKey {
  return {
    group: groupOf(obj.apiVersion),
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? DEFAULT_NAMESPACE,
    name: obj.metadata.name,
  };
}

/** `group/kind/namespace/name`; the core group renders as `core`. */
export function keyString(key: ObjectKey): string {
  return `${key.group || 'core'}/${key.kind}/${key.namespace}/${key.name}`;
}

export function parseKeyString(text: string): ObjectKey | undefined {
  const parts = text.split('/');
  if (parts.length !== 4) return undefined;
  const [group, kind, namespace, name] = parts;
  if (!group || !kind || !namespace || !name) return undefined;
  return { group: group === 'core' ? '' : group, kind, namespace, name };
}

export function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

export function sameGroupKind(a: GroupKind, b: GroupKind): boolean {
  return a.group === b.group && a.kind === b.kind;
}

export function isDeleting(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined;
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(finalizer);
}

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((ref) => ref.controller === true);
}

/** Whether the object's controller owner reference names `ownerUid`. */
export function isControlledBy(obj: KubeObject, ownerUid: string): boolean {
  return controllerOf(obj)?.uid === ownerUid;
}

export function ownerReferenceTo(owner: StoredObject, controller = true): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    controller,
    blockOwnerDeletion: true,
  };
}

/** Well-known labels and annotations (capi-contract.md §2.2). */
export const LABEL_CLUSTER_NAME = 'cluster.x-k8s.io/cluster-name';
/** The MachineDeployment and MachineSet a MachineSet's Machines (and their parts) belong to. */
export const LABEL_DEPLOYMENT_NAME = 'cluster.x-k8s.io/deployment-name';
export const LABEL_SET_NAME = 'cluster.x-k8s.io/set-name';
/** On a control-plane Machine (and its Node's Machine): the Machine serves the cluster's control plane. */
export const LABEL_CONTROL_PLANE = 'cluster.x-k8s.io/control-plane';
/** Secret type of every Secret Cluster API writes: kubeconfigs, cluster certificates, bootstrap data. */
export const CLUSTER_SECRET_TYPE = 'cluster.x-k8s.io/secret';
/** Secret type of a Kubernetes bootstrap token. */
export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const ANNOTATION_PAUSED = 'cluster.x-k8s.io/paused';
/** On an InfraCluster: an external system manages its infrastructure, and its provider leaves it alone (Cluster API's ManagedByAnnotation). */
export const ANNOTATION_MANAGED_BY = 'cluster.x-k8s.io/managed-by';
/** On an object cloned from a template: the template's name and `Kind.group` (Cluster API's clone annotations). */
export const ANNOTATION_CLONED_FROM_NAME = 'cluster.x-k8s.io/cloned-from-name';
export const ANNOTATION_CLONED_FROM_GROUPKIND = 'cluster.x-k8s.io/cloned-from-groupkind';
/** Sorted, comma-separated lifecycle hooks still to be called for a Cluster (internal/hooks/tracking.go). */
export const ANNOTATION_PENDING_HOOKS = 'runtime.cluster.x-k8s.io/pending-hooks';
/** Set on a deleting Cluster once BeforeClusterDelete has passed; the Cluster controller waits for it. */
export const ANNOTATION_OK_TO_DELETE = 'runtime.cluster.x-k8s.io/ok-to-delete';
/** Any Cluster annotation with this prefix holds BeforeClusterUpgrade (exp/topology/desiredstate/lifecycle_hooks.go). */
export const ANNOTATION_PREFIX_BEFORE_UPGRADE_HOOK = 'before-upgrade.hook.cluster.cluster.x-k8s.io';
/** capless's upgrade gate extension: BeforeClusterUpgrade passes for the Kubernetes version this annotation names. */
export const ANNOTATION_UPGRADE_GATE_APPROVED_VERSION = 'upgrade-gate.capless.dev/approved-version';
/** On a MachineSet: its MachineDeployment's replicas, and those plus maxSurge (the MachineDeployment writes them; a paused one's scaling reads them). */
export const ANNOTATION_DESIRED_REPLICAS = 'machinedeployment.clusters.x-k8s.io/desired-replicas';
export const ANNOTATION_MAX_REPLICAS = 'machinedeployment.clusters.x-k8s.io/max-replicas';
/** On a MachineSet: where it stands in its MachineDeployment's rollouts; on the MachineDeployment: its current MachineSet's (Cluster API's RevisionAnnotation). */
export const ANNOTATION_REVISION = 'machinedeployment.clusters.x-k8s.io/revision';
/** On a MachineSet that became current again: the revisions it had before, comma-separated (deprecated in Cluster API, still written). */
export const ANNOTATION_REVISION_HISTORY = 'machinedeployment.clusters.x-k8s.io/revision-history';
/** On a MachineSet or its bootstrap config template: comma-separated preflight checks it skips (`All` for every one). */
export const ANNOTATION_SKIP_PREFLIGHT_CHECKS = 'machineset.cluster.x-k8s.io/skip-preflight-checks';
/** On a MachineSet: `"true"` and it creates no Machines (an old MachineSet of an OnDelete MachineDeployment). */
export const ANNOTATION_DISABLE_MACHINE_CREATE = 'machineset.cluster.x-k8s.io/disable-machine-create';
/** kubectl's client-side apply record: about the object it is on alone. */
export const ANNOTATION_KUBECTL_LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** Cluster API's conversion record of fields another API version holds: about the object it is on alone. */
export const ANNOTATION_CONVERSION_DATA = 'cluster.x-k8s.io/conversion-data';
/** On a MachineDeployment or MachineSet: the node group bounds of the cluster autoscaler's Cluster API provider. */
export const ANNOTATION_AUTOSCALER_MIN_SIZE = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
export const ANNOTATION_AUTOSCALER_MAX_SIZE = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';
/** On a workload cluster's Node: the Machine it belongs to and that Machine's cluster and owner (Cluster API's node annotations). */
export const ANNOTATION_NODE_CLUSTER_NAME = 'cluster.x-k8s.io/cluster-name';
export const ANNOTATION_NODE_CLUSTER_NAMESPACE = 'cluster.x-k8s.io/cluster-namespace';
export const ANNOTATION_NODE_MACHINE = 'cluster.x-k8s.io/machine';
export const ANNOTATION_NODE_OWNER_KIND = 'cluster.x-k8s.io/owner-kind';
export const ANNOTATION_NODE_OWNER_NAME = 'cluster.x-k8s.io/owner-name';
/** On a Node: the comma-separated keys of the labels and annotations last synced from its Machine. */
export const ANNOTATION_LABELS_FROM_MACHINE = 'cluster.x-k8s.io/labels-from-machine';
export const ANNOTATION_ANNOTATIONS_FROM_MACHINE = 'cluster.x-k8s.io/annotations-from-machine';
/** On a Node whose InfraMachine reports `status.interruptible` (a spot instance). */
export const LABEL_INTERRUPTIBLE = 'cluster.x-k8s.io/interruptible';
/** On a Pod: how a Node drain treats it (`skip`, `wait-completed`), before any MachineDrainRule. */
export const LABEL_POD_DRAIN = 'cluster.x-k8s.io/drain';
/** On a control-plane Machine or its bootstrap config: when its kube-apiserver certificate expires (RFC 3339). */
export const ANNOTATION_CERTIFICATES_EXPIRY = 'machine.cluster.x-k8s.io/certificates-expiry';
/** On a Machine: its Node is not drained before the Machine's infrastructure goes. */
export const ANNOTATION_EXCLUDE_NODE_DRAINING = 'machine.cluster.x-k8s.io/exclude-node-draining';
/** On a Machine: its infrastructure goes without waiting for its Node's volumes to detach. */
export const ANNOTATION_EXCLUDE_WAIT_FOR_NODE_VOLUME_DETACH = 'machine.cluster.x-k8s.io/exclude-wait-for-node-volume-detach';
/** On a Pod: kubelet's mirror of a static Pod (a drain leaves it, as kubectl drain does). */
export const ANNOTATION_MIRROR_POD = 'kubernetes.io/config.mirror';
/** `<namespace>/<name>` of a Secret whose `ca.crt` becomes an ExtensionConfig's caBundle. */
export const ANNOTATION_INJECT_CA_FROM_SECRET = 'runtime.cluster.x-k8s.io/inject-ca-from-secret';
