/** The ControlPlane contract (capi-contract.md §2). */

import { booleanAt, isRecord, numberAt, stringAt, valueAt } from '../json.js';
import type { KubeObject } from '../object.js';
import type { ContractVersion } from '../provider-contract.js';
import { compareSemVer, parseSemVer } from '../clusterctl/semver.js';

/** Replica counters in v1beta2 terms; a counter the provider did not report is undefined. */
export interface ControlPlaneReplicas {
  desiredReplicas?: number;
  replicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  upToDateReplicas?: number;
}

export interface ControlPlaneVersion {
  version: string;
  replicas?: number;
}

function defined(counters: ControlPlaneReplicas): ControlPlaneReplicas {
  return Object.fromEntries(Object.entries(counters).filter(([, v]) => v !== undefined));
}

export const controlPlaneContract = {
  /** v1beta2 `status.initialization.controlPlaneInitialized`; v1beta1 `status.initialized`. */
  initialized(obj: KubeObject, version: ContractVersion): boolean {
    return version === 'v1beta1'
      ? booleanAt(obj, 'status', 'initialized') === true
      : booleanAt(obj, 'status', 'initialization', 'controlPlaneInitialized') === true;
  },
  /**
   * v1beta2 `replicas, readyReplicas, availableReplicas, upToDateReplicas`;
   * v1beta1 `replicas, readyReplicas, updatedReplicas, unavailableReplicas` (available = replicas − unavailable).
   */
  replicas(obj: KubeObject, version: ContractVersion): ControlPlaneReplicas {
    const desiredReplicas = numberAt(obj, 'spec', 'replicas');
    const replicas = numberAt(obj, 'status', 'replicas');
    const readyReplicas = numberAt(obj, 'status', 'readyReplicas');
    if (version === 'v1beta1') {
      const unavailable = numberAt(obj, 'status', 'unavailableReplicas');
      return defined({
        desiredReplicas,
        replicas,
        readyReplicas,
        availableReplicas: replicas === undefined ? undefined : replicas - (unavailable ?? 0),
        upToDateReplicas: numberAt(obj, 'status', 'updatedReplicas'),
      });
    }
    return defined({
      desiredReplicas,
      replicas,
      readyReplicas,
      availableReplicas: numberAt(obj, 'status', 'availableReplicas'),
      upToDateReplicas: numberAt(obj, 'status', 'upToDateReplicas'),
    });
  },
  /** `spec.version` (both versions). */
  version(obj: KubeObject): string | undefined {
    return stringAt(obj, 'spec', 'version') || undefined;
  },
  /**
   * Cluster API's IsProvisioning: the control plane reports no version in its status yet (it is
   * being created for the first time).
   */
  isProvisioning(obj: KubeObject, version: ContractVersion): boolean {
    return controlPlaneContract.versions(obj, version).length === 0;
  },
  /**
   * Cluster API's IsUpgrading: a version the status reports is below `spec.version`. No status
   * version is not upgrading; a version that is not semver is undefined (Cluster API fails).
   */
  isUpgrading(obj: KubeObject, version: ContractVersion): boolean | undefined {
    const spec = parseSemVer(controlPlaneContract.version(obj) ?? '');
    if (!spec) return undefined;
    let upgrading = false;
    for (const reported of controlPlaneContract.versions(obj, version)) {
      const status = parseSemVer(reported.version);
      if (!status) return undefined;
      if (compareSemVer(spec, status) > 0) upgrading = true;
    }
    return upgrading;
  },
  /** v1beta2 `status.versions[]` (old → new) with `status.version` as fallback; v1beta1 `status.version`. */
  versions(obj: KubeObject, version: ContractVersion): ControlPlaneVersion[] {
    const list = valueAt(obj, 'status', 'versions');
    if (version === 'v1beta2' && Array.isArray(list) && list.length > 0) {
      return list.flatMap((item) =>
        isRecord(item) && typeof item.version === 'string'
          ? [{ version: item.version, ...(typeof item.replicas === 'number' ? { replicas: item.replicas } : {}) }]
          : [],
      );
    }
    const single = stringAt(obj, 'status', 'version');
    return single ? [{ version: single }] : [];
  },
};
