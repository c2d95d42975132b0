/**
 * What the core asks about providers: which contract a referenced kind follows, whether capless
 * serves the kind at all, and whether some provider actually reconciles it. Reconcilers find the
 * lookup on `ctx.providers[PROVIDER_LOOKUP_PORT]` (see functions/reconcile/engine/providers/).
 */

import { isRecord } from '../json.js';
import type { ProviderKindContract, ProviderType } from '../provider-contract.js';

export const PROVIDER_LOOKUP_PORT = 'providerLookup';

export interface ProviderLookup {
  contractFor(group: string, kind: string): ProviderKindContract | undefined;
  /** The kind is accepted by the API (some provider declared it). */
  isServedKind(group: string, kind: string): boolean;
  /** Some registered reconciler handles objects of this kind. */
  isReconciled(group: string, kind: string): boolean;
  /** Name of the provider that declared the kind. */
  providerOf(group: string, kind: string): string | undefined;
  /** Type of the provider that declared the kind (with its name, clusterctl's inventory name). */
  providerTypeOf(group: string, kind: string): ProviderType | undefined;
}

export function isProviderLookup(value: unknown): value is ProviderLookup {
  return (
    isRecord(value) &&
    typeof value.contractFor === 'function' &&
    typeof value.isServedKind === 'function' &&
    typeof value.isReconciled === 'function' &&
    typeof value.providerOf === 'function' &&
    typeof value.providerTypeOf === 'function'
  );
}
