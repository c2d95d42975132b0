/**
 * MachineHealthChecks from the class (Cluster API's desired_state.go and
 * internal/topology/selectors): one per control plane or MachineDeployment whose class (or
 * topology) defines a health check, named like its target, selecting the topology's Machines.
 * `healthCheck.enabled: false` in the topology turns it off; topology checks and remediation
 * replace the class's. Their reconciler is another issue: these are only the objects.
 */

import { isRecord, type JsonRecord } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { CLUSTER_GROUP } from '../../../../shared/contracts/schemas/groups.js';
import {
  LABEL_CONTROL_PLANE,
  LABEL_TOPOLOGY_DEPLOYMENT_NAME,
  LABEL_TOPOLOGY_OWNED,
} from '../../../../shared/contracts/topology/well-known.js';
import { topologyLabels } from './generated-objects.js';

interface HealthCheckInput {
  clusterName: string;
  namespace: string;
  name: string;
  classHealthCheck: unknown;
  topologyHealthCheck: unknown;
}

/** The checks and remediation to use, or undefined when there is no health check. */
function effective(classHealthCheck: unknown, topologyHealthCheck: unknown): JsonRecord | undefined {
  const fromTopology = isRecord(topologyHealthCheck) ? topologyHealthCheck : {};
  if (fromTopology.enabled === false) return undefined;
  const fromClass = isRecord(classHealthCheck) ? classHealthCheck : {};
  const checks = fromTopology.checks ?? fromClass.checks;
  const remediation = fromTopology.remediation ?? fromClass.remediation;
  if (checks === undefined && remediation === undefined) return undefined;
  return { ...(checks !== undefined ? { checks } : {}), ...(remediation !== undefined ? { remediation } : {}) };
}

function healthCheck(input: HealthCheckInput, matchLabels: Record<string, string>): KubeObject | undefined {
  const spec = effective(input.classHealthCheck, input.topologyHealthCheck);
  if (!spec) return undefined;
  return {
    apiVersion: `${CLUSTER_GROUP}/v1beta2`,
    kind: 'MachineHealthCheck',
    metadata: { name: input.name, namespace: input.namespace, labels: topologyLabels(input.clusterName) },
    spec: { clusterName: input.clusterName, selector: { matchLabels }, ...spec },
  };
}

export function controlPlaneHealthCheck(input: HealthCheckInput): KubeObject | undefined {
  return healthCheck(input, { [LABEL_TOPOLOGY_OWNED]: '', [LABEL_CONTROL_PLANE]: '' });
}

export function machineDeploymentHealthCheck(input: HealthCheckInput & { topologyName: string }): KubeObject | undefined {
  return healthCheck(input, { [LABEL_TOPOLOGY_OWNED]: '', [LABEL_TOPOLOGY_DEPLOYMENT_NAME]: input.topologyName });
}
