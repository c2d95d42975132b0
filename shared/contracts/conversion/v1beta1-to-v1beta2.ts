/**
 * Whole-object conversion of v1beta1 objects of the cluster.x-k8s.io, bootstrap and
 * controlplane groups to v1beta2 (C12 `MIG/v1.10-to-v1.11.md`). What moves:
 * - references: ObjectReference → `{apiGroup, kind, name}` (see references.ts);
 * - Machine (and MS/MD templates): `nodeDrainTimeout`/`nodeVolumeDetachTimeout`/`nodeDeletionTimeout`
 *   → `deletion.*Seconds`;
 * - MachineSet: `deletePolicy` → `deletion.order`, `minReadySeconds` → `template.spec.minReadySeconds`,
 *   `machineNamingStrategy` → `machineNaming`;
 * - MachineDeployment: `strategy` → `rollout.strategy` (`rollingUpdate.deletePolicy` → `deletion.order`,
 *   `strategy.remediation` → `remediation`), `rolloutAfter` → `rollout.after`, `minReadySeconds` →
 *   template; `progressDeadlineSeconds`/`revisionHistoryLimit` are dropped (gone in v1beta2);
 * - KubeadmControlPlane: `machineTemplate.infrastructureRef` → `machineTemplate.spec.infrastructureRef`
 *   (with readinessGates and the drain timeouts), `rolloutStrategy/After/Before` → `rollout.*`,
 *   `remediationStrategy` → `remediation` (durations → seconds), `machineNamingStrategy` → `machineNaming`;
 * - KubeadmConfig(Template), KCP kubeadmConfigSpec: `useExperimentalRetryJoin` dropped, extraArgs maps → lists;
 * - Cluster: `topology.class`/`classNamespace` → `topology.classRef`;
 * - MachineHealthCheck: timeouts and conditions move under `checks`, maxUnhealthy/unhealthyRange/
 *   remediationTemplate under `remediation`.
 * Status is not converted (on create it is dropped; reconcilers write v1beta2 status).
 */

import { isRecord, type JsonRecord } from '../json.js';
import { BOOTSTRAP_GROUP, CLUSTER_GROUP, CONTROL_PLANE_GROUP } from '../schemas/groups.js';
import { durationToSeconds } from './durations.js';
import { deleteAt, getAt, moveAt } from './json-paths.js';
import { convertClusterClass } from './cluster-class-v1beta1.js';
import { convertKubeadmConfigSpec } from './kubeadm-v1beta1.js';

type Converter = (obj: JsonRecord) => void;

const TIMEOUTS = ['nodeDrainTimeout', 'nodeVolumeDetachTimeout', 'nodeDeletionTimeout'] as const;

function convertMachineSpec(obj: JsonRecord, specPath: readonly string[]): void {
  for (const name of TIMEOUTS) {
    moveAt(obj, [...specPath, name], [...specPath, 'deletion', `${name}Seconds`], durationToSeconds);
  }
}

function convertMachineSetLike(obj: JsonRecord): void {
  convertMachineSpec(obj, ['spec', 'template', 'spec']);
  moveAt(obj, ['spec', 'minReadySeconds'], ['spec', 'template', 'spec', 'minReadySeconds']);
  moveAt(obj, ['spec', 'machineNamingStrategy'], ['spec', 'machineNaming']);
}

function convertMachineDeployment(obj: JsonRecord): void {
  convertMachineSetLike(obj);
  moveAt(obj, ['spec', 'strategy', 'rollingUpdate', 'deletePolicy'], ['spec', 'deletion', 'order']);
  moveAt(obj, ['spec', 'strategy', 'remediation'], ['spec', 'remediation']);
  moveAt(obj, ['spec', 'strategy'], ['spec', 'rollout', 'strategy']);
  moveAt(obj, ['spec', 'rolloutAfter'], ['spec', 'rollout', 'after']);
  deleteAt(obj, ['spec', 'progressDeadlineSeconds']);
  deleteAt(obj, ['spec', 'revisionHistoryLimit']);
}

function convertKubeadmControlPlane(obj: JsonRecord): void {
  const template = ['spec', 'machineTemplate'];
  moveAt(obj, [...template, 'infrastructureRef'], [...template, 'spec', 'infrastructureRef']);
  moveAt(obj, [...template, 'readinessGates'], [...template, 'spec', 'readinessGates']);
  for (const name of TIMEOUTS) {
    moveAt(obj, [...template, name], [...template, 'spec', 'deletion', `${name}Seconds`], durationToSeconds);
  }
  moveAt(obj, ['spec', 'rolloutStrategy'], ['spec', 'rollout', 'strategy']);
  moveAt(obj, ['spec', 'rolloutAfter'], ['spec', 'rollout', 'after']);
  moveAt(obj, ['spec', 'rolloutBefore'], ['spec', 'rollout', 'before']);
  moveAt(obj, ['spec', 'remediationStrategy', 'retryPeriod'], ['spec', 'remediationStrategy', 'retryPeriodSeconds'], durationToSeconds);
  moveAt(obj, ['spec', 'remediationStrategy', 'minHealthyPeriod'], ['spec', 'remediationStrategy', 'minHealthyPeriodSeconds'], durationToSeconds);
  moveAt(obj, ['spec', 'remediationStrategy'], ['spec', 'remediation']);
  moveAt(obj, ['spec', 'machineNamingStrategy'], ['spec', 'machineNaming']);
  convertKubeadmConfigSpec(getAt(obj, ['spec', 'kubeadmConfigSpec']));
}

function convertCluster(obj: JsonRecord): void {
  moveAt(obj, ['spec', 'topology', 'class'], ['spec', 'topology', 'classRef', 'name']);
  moveAt(obj, ['spec', 'topology', 'classNamespace'], ['spec', 'topology', 'classRef', 'namespace']);
}

function convertConditions(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) => {
    if (!isRecord(item)) return item;
    const { timeout, ...rest } = item;
    return timeout === undefined ? item : { ...rest, timeoutSeconds: durationToSeconds(timeout) };
  });
}

function convertMachineHealthCheck(obj: JsonRecord): void {
  moveAt(obj, ['spec', 'nodeStartupTimeout'], ['spec', 'checks', 'nodeStartupTimeoutSeconds'], durationToSeconds);
  moveAt(obj, ['spec', 'unhealthyConditions'], ['spec', 'checks', 'unhealthyNodeConditions'], convertConditions);
  moveAt(obj, ['spec', 'unhealthyMachineConditions'], ['spec', 'checks', 'unhealthyMachineConditions'], convertConditions);
  moveAt(obj, ['spec', 'maxUnhealthy'], ['spec', 'remediation', 'triggerIf', 'unhealthyLessThanOrEqualTo']);
  moveAt(obj, ['spec', 'unhealthyRange'], ['spec', 'remediation', 'triggerIf', 'unhealthyInRange']);
  moveAt(obj, ['spec', 'remediationTemplate'], ['spec', 'remediation', 'templateRef'], (ref) =>
    isRecord(ref) ? { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name } : ref,
  );
}

const CONVERTERS: Readonly<Record<string, Converter>> = {
  [`${CLUSTER_GROUP}/Cluster`]: convertCluster,
  [`${CLUSTER_GROUP}/ClusterClass`]: convertClusterClass,
  [`${CLUSTER_GROUP}/Machine`]: (obj) => convertMachineSpec(obj, ['spec']),
  [`${CLUSTER_GROUP}/MachineSet`]: (obj) => {
    convertMachineSetLike(obj);
    moveAt(obj, ['spec', 'deletePolicy'], ['spec', 'deletion', 'order']);
  },
  [`${CLUSTER_GROUP}/MachineDeployment`]: convertMachineDeployment,
  [`${CLUSTER_GROUP}/MachineHealthCheck`]: convertMachineHealthCheck,
  [`${CONTROL_PLANE_GROUP}/KubeadmControlPlane`]: convertKubeadmControlPlane,
  [`${BOOTSTRAP_GROUP}/KubeadmConfig`]: (obj) => convertKubeadmConfigSpec(obj.spec),
  [`${BOOTSTRAP_GROUP}/KubeadmConfigTemplate`]: (obj) => convertKubeadmConfigSpec(getAt(obj, ['spec', 'template', 'spec'])),
};

/** Converts a v1beta1 object's spec to the v1beta2 shape, in place. References are handled separately. */
export function convertV1beta1Spec(obj: JsonRecord, group: string, kind: string): void {
  CONVERTERS[`${group}/${kind}`]?.(obj);
}
