/**
 * What a Machine writes on its Node (Cluster API's Machine controller, reconcileNode and
 * patchNode), as a patch computed purely from the Machine and the Node as read:
 * - annotations naming the Machine, its cluster and owner, and the Machine's annotations of the
 *   `node.cluster.x-k8s.io` domain;
 * - the Machine's labels of the `node-role.kubernetes.io`, `node-restriction.kubernetes.io` and
 *   `node.cluster.x-k8s.io` domains (so `node-role.kubernetes.io/worker` on a MachineDeployment's
 *   template reaches its Nodes), and `cluster.x-k8s.io/interruptible` on a spot instance;
 * - what it synced before and no longer wants removed, by the keys it recorded in
 *   `labels-from-machine` / `annotations-from-machine`; everything else on the Node is kept;
 * - the `node.cluster.x-k8s.io/uninitialized` taint kubeadm registered workers with is removed
 *   once labels are synced (until then the scheduler places no Pod there);
 * - the `outdated-revision` taint set on the Node of a Machine being rolled out
 *   (outdated-revision.ts) and removed from every other.
 * Nothing to change: undefined, and no call is made.
 */

import { stringAt } from '../../../../shared/contracts/json.js';
import {
  ANNOTATION_ANNOTATIONS_FROM_MACHINE,
  ANNOTATION_LABELS_FROM_MACHINE,
  ANNOTATION_NODE_CLUSTER_NAME,
  ANNOTATION_NODE_CLUSTER_NAMESPACE,
  ANNOTATION_NODE_MACHINE,
  ANNOTATION_NODE_OWNER_KIND,
  ANNOTATION_NODE_OWNER_NAME,
  controllerOf,
  LABEL_INTERRUPTIBLE,
  type StoredObject,
} from '../../../../shared/contracts/object.js';
import { UNINITIALIZED_TAINT } from '../../../../shared/kubeadm/index.js';
import type { NodePatch, NodeTaint, WorkloadNode } from '../../../../shared/ports/workload-cluster.js';

const NODE_ROLE_DOMAIN = 'node-role.kubernetes.io';
const NODE_RESTRICTION_DOMAIN = 'node-restriction.kubernetes.io';
const MANAGED_NODE_DOMAIN = 'node.cluster.x-k8s.io';
const OUTDATED_REVISION_TAINT: NodeTaint = { key: 'node.cluster.x-k8s.io/outdated-revision', effect: 'PreferNoSchedule' };

/** The annotations Cluster API sets on every Node it manages (never listed in annotations-from-machine). */
const COMMON_ANNOTATIONS = [ANNOTATION_NODE_CLUSTER_NAME, ANNOTATION_NODE_CLUSTER_NAMESPACE, ANNOTATION_NODE_MACHINE, ANNOTATION_NODE_OWNER_KIND, ANNOTATION_NODE_OWNER_NAME];

function domainOf(key: string): string {
  return key.split('/')[0] ?? '';
}

function inDomain(key: string, domain: string): boolean {
  const name = domainOf(key);
  return name === domain || name.endsWith(`.${domain}`);
}

/** labels.GetManagedLabels: the Machine labels synced to its Node. */
export function managedNodeLabels(machineLabels: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(machineLabels).filter(([key]) => domainOf(key) === NODE_ROLE_DOMAIN || inDomain(key, NODE_RESTRICTION_DOMAIN) || inDomain(key, MANAGED_NODE_DOMAIN)),
  );
}

/** annotations.GetManagedAnnotations: the bookkeeping annotations and the Machine's `node.cluster.x-k8s.io` ones. */
export function managedNodeAnnotations(machine: StoredObject): Record<string, string> {
  const owner = controllerOf(machine);
  const synced = Object.entries(machine.metadata.annotations ?? {}).filter(([key]) => inDomain(key, MANAGED_NODE_DOMAIN));
  return {
    [ANNOTATION_NODE_CLUSTER_NAME]: stringAt(machine, 'spec', 'clusterName') ?? '',
    [ANNOTATION_NODE_CLUSTER_NAMESPACE]: machine.metadata.namespace,
    [ANNOTATION_NODE_MACHINE]: machine.metadata.name,
    ...(owner ? { [ANNOTATION_NODE_OWNER_KIND]: owner.kind, [ANNOTATION_NODE_OWNER_NAME]: owner.name } : {}),
    ...Object.fromEntries(synced),
  };
}

function keysOf(annotation: string | undefined): string[] {
  return annotation ? annotation.split(',').filter((key) => key !== '') : [];
}

/** Sets `wanted` over `current` and removes `previous` keys no longer wanted: the changes, as a merge patch's map. */
function changes(current: Readonly<Record<string, string>>, wanted: Readonly<Record<string, string>>, previous: readonly string[]): Record<string, string | null> {
  const patch: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(wanted)) if (current[key] !== value) patch[key] = value;
  for (const key of previous) if (!(key in wanted) && key in current) patch[key] = null;
  return patch;
}

function sameTaint(a: NodeTaint, b: NodeTaint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** The Node's taints without the uninitialized one, with the outdated-revision one exactly when `outdated`. */
function wantedTaints(taints: readonly NodeTaint[], outdated: boolean): NodeTaint[] {
  const kept = taints.filter((t) => !sameTaint(t, UNINITIALIZED_TAINT) && (outdated || !sameTaint(t, OUTDATED_REVISION_TAINT)));
  return outdated && !kept.some((t) => sameTaint(t, OUTDATED_REVISION_TAINT)) ? [...kept, OUTDATED_REVISION_TAINT] : kept;
}

export interface NodeSyncFacts {
  /** The InfraMachine reports a spot instance. */
  interruptible: boolean;
  /** The Machine's MachineSet is behind its MachineDeployment's revision (outdated-revision.ts). */
  outdated: boolean;
}

export function nodePatchFor(machine: StoredObject, node: WorkloadNode, { interruptible, outdated }: NodeSyncFacts): NodePatch | undefined {
  const nodeLabels = node.labels ?? {};
  const nodeAnnotations = node.annotations ?? {};
  const labels = { ...managedNodeLabels(machine.metadata.labels ?? {}), ...(interruptible ? { [LABEL_INTERRUPTIBLE]: '' } : {}) };
  const annotations = managedNodeAnnotations(machine);
  const previousAnnotations = [...keysOf(nodeAnnotations[ANNOTATION_ANNOTATIONS_FROM_MACHINE]), ...COMMON_ANNOTATIONS];
  const tracking = {
    [ANNOTATION_LABELS_FROM_MACHINE]: Object.keys(labels).sort().join(','),
    [ANNOTATION_ANNOTATIONS_FROM_MACHINE]: Object.keys(annotations).filter((key) => !COMMON_ANNOTATIONS.includes(key)).sort().join(','),
  };
  const labelChanges = changes(nodeLabels, labels, keysOf(nodeAnnotations[ANNOTATION_LABELS_FROM_MACHINE]));
  const annotationChanges = changes(nodeAnnotations, { ...annotations, ...tracking }, previousAnnotations);
  const taints = node.taints ?? [];
  const keptTaints = wantedTaints(taints, outdated);
  const taintsChanged = keptTaints.length !== taints.length || keptTaints.some((t, i) => taints[i] !== t);
  if (Object.keys(labelChanges).length === 0 && Object.keys(annotationChanges).length === 0 && !taintsChanged) return undefined;
  return {
    labels: labelChanges,
    annotations: annotationChanges,
    ...(taintsChanged ? { taints: keptTaints } : {}),
    ...(node.resourceVersion ? { resourceVersion: node.resourceVersion } : {}),
  };
}
