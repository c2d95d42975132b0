/**
 * ClusterClass v1beta1 → v1beta2 (clusterclass-runtime-sdk.md §1): `ref` → `templateRef`
 * {apiVersion, kind, name}; MD `template.{bootstrap,infrastructure}.ref` → `{bootstrap,infrastructure}.templateRef`;
 * `machineHealthCheck` → `healthCheck`; `namingStrategy` → `naming`; `strategy` → `rollout.strategy`;
 * variable `metadata` → `deprecatedV1Beta1Metadata`.
 */

import { isRecord, type JsonRecord } from '../json.js';
import { durationToSeconds } from './durations.js';
import { deleteAt, getAt, moveAt } from './json-paths.js';

function templateRef(ref: unknown): unknown {
  return isRecord(ref) ? { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name } : ref;
}

function convertHealthCheck(obj: JsonRecord, path: readonly string[]): void {
  const from = [...path, 'machineHealthCheck'];
  const to = [...path, 'healthCheck'];
  moveAt(obj, [...from, 'nodeStartupTimeout'], [...to, 'checks', 'nodeStartupTimeoutSeconds'], durationToSeconds);
  moveAt(obj, [...from, 'unhealthyConditions'], [...to, 'checks', 'unhealthyNodeConditions'], conditionsWithSeconds);
  moveAt(obj, [...from, 'unhealthyMachineConditions'], [...to, 'checks', 'unhealthyMachineConditions'], conditionsWithSeconds);
  moveAt(obj, [...from, 'maxUnhealthy'], [...to, 'remediation', 'triggerIf', 'unhealthyLessThanOrEqualTo']);
  moveAt(obj, [...from, 'unhealthyRange'], [...to, 'remediation', 'triggerIf', 'unhealthyInRange']);
  moveAt(obj, [...from, 'remediationTemplate'], [...to, 'remediation', 'templateRef'], templateRef);
  dropIfEmpty(obj, from);
}

function conditionsWithSeconds(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) => {
    if (!isRecord(item)) return item;
    const { timeout, ...rest } = item;
    return timeout === undefined ? item : { ...rest, timeoutSeconds: durationToSeconds(timeout) };
  });
}

function dropIfEmpty(obj: JsonRecord, path: readonly string[]): void {
  const value = getAt(obj, path);
  if (isRecord(value) && Object.keys(value).length === 0) deleteAt(obj, path);
}

export function convertClusterClass(obj: JsonRecord): void {
  moveAt(obj, ['spec', 'infrastructure', 'ref'], ['spec', 'infrastructure', 'templateRef'], templateRef);
  moveAt(obj, ['spec', 'infrastructureNamingStrategy'], ['spec', 'infrastructure', 'naming']);
  moveAt(obj, ['spec', 'controlPlane', 'ref'], ['spec', 'controlPlane', 'templateRef'], templateRef);
  moveAt(obj, ['spec', 'controlPlane', 'machineInfrastructure', 'ref'], ['spec', 'controlPlane', 'machineInfrastructure', 'templateRef'], templateRef);
  moveAt(obj, ['spec', 'controlPlane', 'namingStrategy'], ['spec', 'controlPlane', 'naming']);
  convertHealthCheck(obj, ['spec', 'controlPlane']);
  const mds = getAt(obj, ['spec', 'workers', 'machineDeployments']);
  if (Array.isArray(mds)) {
    for (const md of mds) {
      if (!isRecord(md)) continue;
      moveAt(md, ['template', 'bootstrap', 'ref'], ['bootstrap', 'templateRef'], templateRef);
      moveAt(md, ['template', 'infrastructure', 'ref'], ['infrastructure', 'templateRef'], templateRef);
      moveAt(md, ['template', 'metadata'], ['metadata']);
      for (const path of [['template', 'bootstrap'], ['template', 'infrastructure'], ['template']]) dropIfEmpty(md, path);
      moveAt(md, ['namingStrategy'], ['naming']);
      moveAt(md, ['strategy'], ['rollout', 'strategy']);
      convertHealthCheck(md, []);
    }
  }
  const variables = getAt(obj, ['spec', 'variables']);
  if (Array.isArray(variables)) {
    for (const variable of variables) if (isRecord(variable)) moveAt(variable, ['metadata'], ['deprecatedV1Beta1Metadata']);
  }
}
