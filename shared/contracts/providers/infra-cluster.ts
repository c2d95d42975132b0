/** The InfraCluster contract (capi-contract.md §2): what the core reads from an infrastructure cluster. */

import { booleanAt, valueAt } from '../json.js';
import type { KubeObject } from '../object.js';
import type { ContractVersion } from '../provider-contract.js';
import { type Endpoint, type FailureDomain, readEndpoint, readFailureDomains } from './fields.js';

export const infraClusterContract = {
  /** v1beta2 `status.initialization.provisioned`; v1beta1 `status.ready`. */
  provisioned(obj: KubeObject, version: ContractVersion): boolean {
    return version === 'v1beta1'
      ? booleanAt(obj, 'status', 'ready') === true
      : booleanAt(obj, 'status', 'initialization', 'provisioned') === true;
  },
  /** `spec.controlPlaneEndpoint` when both host and port are set (both versions). */
  controlPlaneEndpoint(obj: KubeObject): Endpoint | undefined {
    return readEndpoint(valueAt(obj, 'spec', 'controlPlaneEndpoint'));
  },
  /** `status.failureDomains`, normalized to a sorted list whichever shape the provider wrote. */
  failureDomains(obj: KubeObject): FailureDomain[] {
    return readFailureDomains(valueAt(obj, 'status', 'failureDomains'));
  },
};
