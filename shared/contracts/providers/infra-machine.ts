/** The InfraMachine contract (capi-contract.md §2). */

import { booleanAt, stringAt, valueAt } from '../json.js';
import type { KubeObject } from '../object.js';
import type { ContractVersion } from '../provider-contract.js';
import { type MachineAddress, readAddresses } from './fields.js';

export const infraMachineContract = {
  /** `spec.providerID` when non-empty (both versions). */
  providerID(obj: KubeObject): string | undefined {
    const id = stringAt(obj, 'spec', 'providerID');
    return id ? id : undefined;
  },
  /** v1beta2 `status.initialization.provisioned`; v1beta1 `status.ready`. */
  provisioned(obj: KubeObject, version: ContractVersion): boolean {
    return version === 'v1beta1'
      ? booleanAt(obj, 'status', 'ready') === true
      : booleanAt(obj, 'status', 'initialization', 'provisioned') === true;
  },
  addresses(obj: KubeObject): MachineAddress[] {
    return readAddresses(valueAt(obj, 'status', 'addresses'));
  },
  /** v1beta2 `status.failureDomain`; v1beta1 the legacy `spec.failureDomain`. */
  failureDomain(obj: KubeObject, version: ContractVersion): string | undefined {
    const fd = version === 'v1beta1' ? stringAt(obj, 'spec', 'failureDomain') : stringAt(obj, 'status', 'failureDomain');
    return fd ? fd : undefined;
  },
};
