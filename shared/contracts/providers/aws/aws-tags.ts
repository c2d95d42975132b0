/**
 * The tags capless puts on AWS resources: CAPA's own (api/v1beta2/tags.go), so CAPA tooling and
 * the cloud provider recognise them, plus one capless tag that IAM conditions and the EventBridge
 * consumer key on (an IAM condition needs a fixed key; CAPA's ownership key embeds the cluster name).
 */

export type Tags = Readonly<Record<string, string>>;

/** Every resource capless creates carries this tag; IAM lets capless change only resources that do. */
export const CAPLESS_MANAGED_TAG = 'capless.io/managed';
export const CAPLESS_MANAGED_VALUE = 'true';

export const TAG_NAME = 'Name';
export const TAG_ROLE = 'sigs.k8s.io/cluster-api-provider-aws/role';
export const TAG_MACHINE_NAME = 'MachineName';
export const TAG_CAPA_CLUSTER_PREFIX = 'sigs.k8s.io/cluster-api-provider-aws/cluster/';
export const TAG_KUBERNETES_CLUSTER_PREFIX = 'kubernetes.io/cluster/';
export const TAG_ELB_ROLE = 'kubernetes.io/role/elb';
export const TAG_INTERNAL_ELB_ROLE = 'kubernetes.io/role/internal-elb';

export const OWNED = 'owned';
export const SHARED = 'shared';

export type ResourceRole = 'control-plane' | 'controlplane' | 'node' | 'public' | 'private' | 'apiserver' | 'bastion' | 'common' | 'lb' | 'apiserver-lb';

/** `sigs.k8s.io/cluster-api-provider-aws/cluster/<cluster>`: the ownership key. */
export function capaClusterTagKey(cluster: string): string {
  return `${TAG_CAPA_CLUSTER_PREFIX}${cluster}`;
}

/** `kubernetes.io/cluster/<cluster>`: the cloud provider's ownership key. */
export function kubernetesClusterTagKey(cluster: string): string {
  return `${TAG_KUBERNETES_CLUSTER_PREFIX}${cluster}`;
}

/** Tags of a resource capless creates for a cluster (CAPA's Build with lifecycle owned). */
export function ownedResourceTags(cluster: string, name: string, role: ResourceRole, additional: Tags = {}): Tags {
  return {
    ...withoutReserved(additional),
    [TAG_NAME]: name,
    [capaClusterTagKey(cluster)]: OWNED,
    [TAG_ROLE]: role,
    [CAPLESS_MANAGED_TAG]: CAPLESS_MANAGED_VALUE,
  };
}

export interface InstanceTagInput {
  cluster: string;
  /** The AWSMachine's name (CAPA's Name tag). */
  awsMachine: string;
  namespace: string;
  /** The owning Machine's name. */
  machine: string;
  controlPlane: boolean;
  clusterAdditionalTags?: Tags;
  machineAdditionalTags?: Tags;
}

/** An instance's tags: CAPA's set (the machine's additionalTags win over the cluster's), plus capless's. */
/** CAPA's MachineScope.AdditionalTags: the AWSCluster's, then the AWSMachine's over them (reserved keys left out). */
export function additionalTags(clusterAdditionalTags: Tags = {}, machineAdditionalTags: Tags = {}): Tags {
  return { ...withoutReserved(clusterAdditionalTags), ...withoutReserved(machineAdditionalTags) };
}

export function instanceTags(input: InstanceTagInput): Tags {
  return {
    ...additionalTags(input.clusterAdditionalTags, input.machineAdditionalTags),
    [TAG_NAME]: input.awsMachine,
    [capaClusterTagKey(input.cluster)]: OWNED,
    [TAG_ROLE]: input.controlPlane ? 'control-plane' : 'node',
    [kubernetesClusterTagKey(input.cluster)]: OWNED,
    [TAG_MACHINE_NAME]: `${input.namespace}/${input.machine}`,
    [CAPLESS_MANAGED_TAG]: CAPLESS_MANAGED_VALUE,
  };
}

/** Bootstrap-data secrets carry the instance's tags minus MachineName (CAPA). */
export function userDataSecretTags(instance: Tags): Tags {
  const { [TAG_MACHINE_NAME]: _machineName, ...rest } = instance;
  return rest;
}

/** Tags a user may not set through additionalTags: `aws:` is AWS's, the capless tag is capless's. */
function withoutReserved(tags: Tags): Tags {
  return Object.fromEntries(Object.entries(tags).filter(([key]) => !key.startsWith('aws:') && key !== CAPLESS_MANAGED_TAG));
}

/** True when a resource with these tags is owned (created and deletable) by capless for the cluster. */
export function isOwnedBy(tags: Tags, cluster: string): boolean {
  return tags[capaClusterTagKey(cluster)] === OWNED && tags[CAPLESS_MANAGED_TAG] === CAPLESS_MANAGED_VALUE;
}
