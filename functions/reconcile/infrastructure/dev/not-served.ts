import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import type { DevBackend } from './backend.js';

/** A Dev* object whose backend capless cannot run: Ready=False, ProviderNotInstalled, like the Docker kinds. */
export function backendNotServedCondition(kind: string, backend: DevBackend): ConditionInput {
  return {
    type: 'Ready',
    status: 'False',
    reason: 'ProviderNotInstalled',
    message:
      backend === 'docker'
        ? `${kind} spec.backend.docker needs the Docker provider, which capless does not run; use spec.backend.inMemory`
        : `${kind} sets no spec.backend`,
  };
}
