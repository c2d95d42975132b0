import type { ApiDeps } from '../../functions/api/api.js';
import { pathAdmission } from '../../functions/api/path-admission.js';
import { KindRegistry } from '../../shared/contracts/kinds.js';
import { builtinProviderLookup } from '../../shared/contracts/providers/builtin-lookup.js';
import { silentLogger } from '../../shared/ports/logger.js';
import { MemoryObjectStore } from '../../shared/store/memory-store.js';

/**
 * The API's dependencies over a fresh memory store, the built-in kinds and their admission, for
 * calling `handleApiRequest` directly; the caller is a reader without Secret rights unless
 * `overrides` says otherwise.
 */
export function memoryApiDeps(overrides: Partial<ApiDeps> = {}): ApiDeps {
  const kinds = overrides.kinds ?? new KindRegistry();
  return {
    store: new MemoryObjectStore(),
    kinds,
    admission: pathAdmission(kinds, builtinProviderLookup),
    authenticate: () => ({ name: 'reader', canReadSecrets: false, canWriteSecrets: false }),
    logger: silentLogger,
    ...overrides,
  };
}
