import {
  PROVIDER_LOOKUP_PORT,
  type ProviderLookup,
  isProviderLookup,
} from '../../../../shared/contracts/providers/provider-lookup.js';
import { builtinProviderLookup } from '../../../../shared/contracts/providers/builtin-lookup.js';
import type { ReconcileContext } from '../skeleton/types.js';

/** The provider lookup on `ctx.providers.providerLookup`, or the built-in providers' data. */
export function providerLookupOf(ctx: ReconcileContext): ProviderLookup {
  const candidate = ctx.providers?.[PROVIDER_LOOKUP_PORT];
  return isProviderLookup(candidate) ? candidate : builtinProviderLookup;
}
