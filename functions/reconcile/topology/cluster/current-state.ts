/**
 * What exists of a topology Cluster now (Cluster API's current_state.go): its infrastructure
 * cluster and control plane (through the Cluster's references), the control plane's machine
 * template, the MachineDeployments the topology owns (by label) with their templates, and the
 * cluster's Machines (for upgrade sequencing). Read afresh every reconcile.
 */

import { CORE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import { LABEL_CLUSTER_NAME, type StoredObject } from '../../../../shared/contracts/object.js';
import { LABEL_TOPOLOGY_DEPLOYMENT_NAME, LABEL_TOPOLOGY_OWNED } from '../../../../shared/contracts/topology/well-known.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { listClusterMembers, MACHINE, MACHINE_DEPLOYMENT, MACHINE_SET } from '../../engine/references/cluster-members.js';
import { readReference, referenceKey } from '../../engine/references/object-reference.js';

export interface CurrentMachineDeployment {
  object: StoredObject;
  bootstrapTemplate?: StoredObject;
  infrastructureTemplate?: StoredObject;
}

export interface CurrentState {
  infrastructureCluster?: StoredObject;
  controlPlane?: StoredObject;
  controlPlaneMachineTemplate?: StoredObject;
  /** By topology name. */
  machineDeployments: Map<string, CurrentMachineDeployment>;
  machines: StoredObject[];
  machineSets: StoredObject[];
}

async function follow(store: ObjectStore, holder: StoredObject | undefined, ...path: string[]): Promise<StoredObject | undefined> {
  if (!holder) return undefined;
  const ref = readReference(holder, ...path);
  return ref ? store.get(referenceKey(ref, holder.metadata.namespace)) : undefined;
}

export async function loadCurrentState(store: ObjectStore, cluster: StoredObject): Promise<CurrentState> {
  const { namespace, name } = cluster.metadata;
  const infrastructureCluster = await follow(store, cluster, 'spec', 'infrastructureRef');
  const controlPlane = await follow(store, cluster, 'spec', 'controlPlaneRef');
  const controlPlaneMachineTemplate = await follow(store, controlPlane, 'spec', 'machineTemplate', 'spec', 'infrastructureRef');
  const members = await listClusterMembers(store, namespace, name, [MACHINE_DEPLOYMENT, MACHINE, MACHINE_SET]);
  const machineDeployments = new Map<string, CurrentMachineDeployment>();
  for (const md of members.filter((o) => o.kind === MACHINE_DEPLOYMENT.kind)) {
    const labels = md.metadata.labels ?? {};
    const topologyName = labels[LABEL_TOPOLOGY_DEPLOYMENT_NAME];
    if (labels[LABEL_TOPOLOGY_OWNED] === undefined || labels[LABEL_CLUSTER_NAME] !== name || !topologyName) continue;
    const bootstrapTemplate = await follow(store, md, 'spec', 'template', 'spec', 'bootstrap', 'configRef');
    const infrastructureTemplate = await follow(store, md, 'spec', 'template', 'spec', 'infrastructureRef');
    machineDeployments.set(topologyName, {
      object: md,
      ...(bootstrapTemplate ? { bootstrapTemplate } : {}),
      ...(infrastructureTemplate ? { infrastructureTemplate } : {}),
    });
  }
  return {
    ...(infrastructureCluster ? { infrastructureCluster } : {}),
    ...(controlPlane ? { controlPlane } : {}),
    ...(controlPlaneMachineTemplate ? { controlPlaneMachineTemplate } : {}),
    machineDeployments,
    machines: members.filter((o) => o.kind === MACHINE.kind && o.apiVersion.startsWith(`${CORE_GROUP}/`)),
    machineSets: members.filter((o) => o.kind === MACHINE_SET.kind),
  };
}
