import { controllerOf, type ObjectKey } from '../../../../shared/contracts/object.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { tokenSecretName } from './bootstrap-token.js';
import type { KubeadmConfigScope } from './scope.js';

/**
 * Deletes the Secrets this config produced (bootstrap data and its token) before the finalizer
 * goes. The config's own function holds the Secrets permission; deleting them here keeps
 * garbage collection of Secrets out of the Machine, MachineSet and MachineDeployment functions,
 * which may not touch Secrets (ADR 0003).
 */
export async function deleteOwnedSecrets(scope: KubeadmConfigScope): Promise<PhaseResult | undefined> {
  const { store } = scope.ctx;
  const { namespace, name, uid } = scope.object.metadata;
  for (const secretName of [name, tokenSecretName(name)]) {
    const key: ObjectKey = { group: '', kind: 'Secret', namespace, name: secretName };
    const secret = await store.get(key);
    if (secret && controllerOf(secret)?.uid === uid) await store.delete(key);
  }
  return undefined;
}
