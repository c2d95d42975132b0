/** KubeadmConfig status and conditions: pure functions of what the phases found. */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import type { StatusUpdate } from '../../engine/skeleton/types.js';

export const CONDITION_READY = 'Ready';
export const CONDITION_DATA_SECRET_AVAILABLE = 'DataSecretAvailable';
/** False with reason UserDataTooLarge when even the gzipped document exceeds EC2's 16 KB. */
export const CONDITION_USER_DATA_WITHIN_LIMIT = 'UserDataWithinLimit';

export type DataSecretState =
  | { available: true }
  | { available: false; reason: string; message: string };

/** Ready mirrors DataSecretAvailable: a bootstrap config is ready once its data is. */
export function dataSecretConditions(state: DataSecretState): ConditionInput[] {
  if (state.available) {
    return [
      { type: CONDITION_DATA_SECRET_AVAILABLE, status: 'True', reason: 'Available' },
      { type: CONDITION_READY, status: 'True', reason: 'Ready' },
    ];
  }
  return [
    { type: CONDITION_DATA_SECRET_AVAILABLE, status: 'False', reason: state.reason, message: state.message },
    { type: CONDITION_READY, status: 'False', reason: state.reason, message: state.message },
  ];
}

export function userDataSizeCondition(bytes: number, withinLimit: boolean, gzipped: boolean): ConditionInput {
  const size = `${bytes} bytes${gzipped ? ' gzipped' : ''}`;
  return withinLimit
    ? { type: CONDITION_USER_DATA_WITHIN_LIMIT, status: 'True', reason: 'WithinLimit', message: `bootstrap data is ${size}` }
    : {
        type: CONDITION_USER_DATA_WITHIN_LIMIT,
        status: 'False',
        reason: 'UserDataTooLarge',
        message: `bootstrap data is ${size}, over the 16384-byte EC2 user data limit`,
      };
}

export interface KubeadmConfigStatusInputs {
  dataSecretName?: string;
}

export function kubeadmConfigStatus(inputs: KubeadmConfigStatusInputs): StatusUpdate {
  if (!inputs.dataSecretName) return { fields: { initialization: { dataSecretCreated: false } } };
  return { fields: { initialization: { dataSecretCreated: true }, dataSecretName: inputs.dataSecretName } };
}
