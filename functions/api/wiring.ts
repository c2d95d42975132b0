import { objectStoreFromEnv } from '../../shared/adapters/aws/dynamodb/store-from-env.js';
import { BUILTIN_KINDS, KindRegistry } from '../../shared/contracts/kinds.js';
import { builtinProviderLookup } from '../../shared/contracts/providers/builtin-lookup.js';
import type { Logger } from '../../shared/ports/logger.js';
import type { ApiDeps } from './api.js';
import { pathAdmission } from './path-admission.js';

/** Everything the API needs except the caller, built once per Lambda container. */
export function apiWiring(logger: Logger): Omit<ApiDeps, 'authenticate'> {
  const kinds = new KindRegistry(BUILTIN_KINDS);
  return {
    store: objectStoreFromEnv(),
    kinds,
    admission: pathAdmission(kinds, builtinProviderLookup),
    contracts: builtinProviderLookup,
    logger,
  };
}
