/**
 * The bootstrap-data secrets live only as long as needed (CAPA): deleted once the Machine has a
 * Node, once the instance is past running, and when the AWSMachine is deleted.
 */

import { numberAt, stringAt } from '../../../../../shared/contracts/json.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { cloudFailure } from '../common/cloud-error.js';
import { INSTANCE_READY, type AwsMachineScope } from './scope.js';
import { secretNames } from './user-data.js';

export async function deleteUserDataSecrets(s: AwsMachineScope): Promise<void> {
  const prefix = stringAt(s.object, 'spec', 'cloudInit', 'secretPrefix');
  const count = numberAt(s.object, 'spec', 'cloudInit', 'secretCount') ?? 0;
  if (!prefix || !s.cloud) return;
  for (const name of secretNames(prefix, count)) await s.cloud.secrets.deleteSecret(name);
}

export async function secretsCleanupPhase(s: AwsMachineScope): Promise<PhaseResult> {
  const joined = stringAt(s.machine, 'status', 'nodeRef', 'name') !== undefined;
  const gone = s.instance !== undefined && (s.instance.state === 'shutting-down' || s.instance.state === 'terminated');
  if (!joined && !gone) return {};
  try {
    await deleteUserDataSecrets(s);
  } catch (error) {
    return { ...cloudFailure(s, INSTANCE_READY, 'SecretsDeleteFailed', error), stop: false };
  }
  return {};
}
