/** The BootstrapConfig contract (capi-contract.md §2). */

import { booleanAt, stringAt } from '../json.js';
import type { KubeObject } from '../object.js';
import type { ContractVersion } from '../provider-contract.js';

export const bootstrapConfigContract = {
  /** v1beta2 `status.initialization.dataSecretCreated`; v1beta1 `status.ready`. */
  dataSecretCreated(obj: KubeObject, version: ContractVersion): boolean {
    return version === 'v1beta1'
      ? booleanAt(obj, 'status', 'ready') === true
      : booleanAt(obj, 'status', 'initialization', 'dataSecretCreated') === true;
  },
  /** `status.dataSecretName` when non-empty (both versions). */
  dataSecretName(obj: KubeObject): string | undefined {
    const name = stringAt(obj, 'status', 'dataSecretName');
    return name ? name : undefined;
  },
};
