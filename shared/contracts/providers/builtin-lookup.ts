/**
 * The provider lookup a reconciler falls back to when its context carries none: the built-in
 * providers' data, every contract kind reconciled except the Docker ones.
 */

import { sameGroupKind } from '../object.js';
import type { ProviderKindContract } from '../provider-contract.js';
import { BUILTIN_PROVIDERS, DOCKER_PROVIDER } from './builtin-providers.js';
import type { ProviderLookup } from './provider-lookup.js';

function find(group: string, kind: string) {
  return BUILTIN_PROVIDERS.find((p) => p.kinds.some((k) => sameGroupKind(k, { group, kind })));
}

export const builtinProviderLookup: ProviderLookup = {
  contractFor(group: string, kind: string): ProviderKindContract | undefined {
    return BUILTIN_PROVIDERS.flatMap((p) => p.contracts).find((c) => sameGroupKind(c, { group, kind }));
  },
  isServedKind: (group, kind) => find(group, kind) !== undefined,
  isReconciled(group, kind) {
    const provider = find(group, kind);
    return provider !== undefined && provider !== DOCKER_PROVIDER && !kind.endsWith('Template');
  },
  providerOf: (group, kind) => find(group, kind)?.name,
  providerTypeOf: (group, kind) => find(group, kind)?.type,
};
