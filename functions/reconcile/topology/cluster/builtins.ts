/**
 * Builtin variables (Cluster API's topologymutation variable types): `builtin.cluster`,
 * `builtin.controlPlane` (both global) and `builtin.machineDeployment` (per MachineDeployment).
 * Versions are this reconcile's computed ones, so they lag topology.version mid-upgrade.
 */

import { isRecord, type JsonRecord, stringAt, valueAt } from '../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { classRefOf } from './blueprint.js';
import type { ClusterTopology } from './topology-spec.js';

function cidrs(cluster: StoredObject, field: 'services' | 'pods'): unknown {
  const blocks = valueAt(cluster.spec, 'clusterNetwork', field, 'cidrBlocks');
  return Array.isArray(blocks) ? blocks : undefined;
}

function compact(record: JsonRecord): JsonRecord {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && !(isRecord(v) && Object.keys(v).length === 0)));
}

export function clusterBuiltin(cluster: StoredObject, topology: ClusterTopology): JsonRecord {
  const ref = classRefOf(cluster);
  return compact({
    name: cluster.metadata.name,
    namespace: cluster.metadata.namespace,
    uid: cluster.metadata.uid,
    metadata: compact({ labels: cluster.metadata.labels, annotations: cluster.metadata.annotations }),
    topology: { version: topology.version, class: ref.name, classNamespace: ref.namespace, classRef: { name: ref.name, namespace: ref.namespace } },
    network: compact({
      serviceDomain: stringAt(cluster.spec, 'clusterNetwork', 'serviceDomain'),
      services: cidrs(cluster, 'services'),
      pods: cidrs(cluster, 'pods'),
    }),
  });
}

export function controlPlaneBuiltin(input: {
  version: string;
  name: string;
  replicas: number | undefined;
  metadata: unknown;
  machineTemplateName: string | undefined;
}): JsonRecord {
  return compact({
    version: input.version,
    name: input.name,
    replicas: input.replicas,
    metadata: isRecord(input.metadata) ? input.metadata : undefined,
    machineTemplate: input.machineTemplateName ? { infrastructureRef: { name: input.machineTemplateName } } : undefined,
  });
}

export function machineDeploymentBuiltin(input: {
  version: string;
  className: string;
  name: string;
  topologyName: string;
  replicas: number | undefined;
  metadata: unknown;
  bootstrapTemplateName: string | undefined;
  infrastructureTemplateName: string | undefined;
}): JsonRecord {
  return compact({
    version: input.version,
    class: input.className,
    name: input.name,
    topologyName: input.topologyName,
    replicas: input.replicas,
    metadata: isRecord(input.metadata) ? input.metadata : undefined,
    bootstrap: input.bootstrapTemplateName ? { configRef: { name: input.bootstrapTemplateName } } : undefined,
    infrastructureRef: input.infrastructureTemplateName ? { name: input.infrastructureTemplateName } : undefined,
  });
}
