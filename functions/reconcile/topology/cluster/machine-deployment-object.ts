/**
 * A topology MachineDeployment (Cluster API's desired_state.go computeMachineDeployment): labels
 * are the class's metadata overlaid by the topology's, plus cluster-name, owned and
 * deployment-name (also on the Machine template); the selector is those three; version,
 * templates, failure domain, minReadySeconds and rollout come from topology and class. Replicas
 * follow the topology; unset there, they are left to whoever sets them (an autoscaler).
 */

import { stringEntriesOf } from '../../../../shared/contracts/json.js';
import { groupOf, type KubeObject } from '../../../../shared/contracts/object.js';
import { CLUSTER_GROUP } from '../../../../shared/contracts/schemas/groups.js';
import { LABEL_TOPOLOGY_DEPLOYMENT_NAME } from '../../../../shared/contracts/topology/well-known.js';
import type { MachineDeploymentBlueprint } from './blueprint.js';
import { topologyLabels } from './generated-objects.js';
import type { TopologyMachineDeployment } from './topology-spec.js';

export interface MachineDeploymentObjectInput {
  name: string;
  namespace: string;
  clusterName: string;
  topology: TopologyMachineDeployment;
  classSpec: MachineDeploymentBlueprint['classSpec'];
  version: string;
  bootstrapTemplate: KubeObject;
  infrastructureTemplate: KubeObject;
  currentReplicas: unknown;
}

const refTo = (o: KubeObject) => ({ apiGroup: groupOf(o.apiVersion), kind: o.kind, name: o.metadata.name });

export function machineDeploymentObject(input: MachineDeploymentObjectInput): KubeObject {
  const { topology, classSpec } = input;
  const selectorLabels = topologyLabels(input.clusterName, { [LABEL_TOPOLOGY_DEPLOYMENT_NAME]: topology.name });
  const labels = { ...stringEntriesOf(classSpec.metadata?.labels), ...stringEntriesOf(topology.metadata?.labels), ...selectorLabels };
  const annotations = { ...stringEntriesOf(classSpec.metadata?.annotations), ...stringEntriesOf(topology.metadata?.annotations) };
  const failureDomain = topology.failureDomain ?? classSpec.failureDomain;
  const minReadySeconds = topology.minReadySeconds ?? classSpec.minReadySeconds;
  const rollout = topology.rollout ?? classSpec.rollout;
  const replicas = topology.replicas ?? (typeof input.currentReplicas === 'number' ? input.currentReplicas : undefined);
  return {
    apiVersion: `${CLUSTER_GROUP}/v1beta2`,
    kind: 'MachineDeployment',
    metadata: {
      name: input.name,
      namespace: input.namespace,
      labels,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    },
    spec: {
      clusterName: input.clusterName,
      ...(replicas !== undefined ? { replicas } : {}),
      selector: { matchLabels: selectorLabels },
      template: {
        metadata: { labels, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) },
        spec: {
          clusterName: input.clusterName,
          version: input.version,
          bootstrap: { configRef: refTo(input.bootstrapTemplate) },
          infrastructureRef: refTo(input.infrastructureTemplate),
          ...(typeof failureDomain === 'string' ? { failureDomain } : {}),
          ...(typeof minReadySeconds === 'number' ? { minReadySeconds } : {}),
        },
      },
      ...(rollout !== undefined ? { rollout } : {}),
    },
  };
}
