/**
 * Resolving a provider reference through the provider lookup: a kind nobody serves or nobody
 * reconciles is reported, not retried hot; a missing object is waited for.
 */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { ContractVersion, ProviderKindContract } from '../../../../shared/contracts/provider-contract.js';
import type { ProviderLookup } from '../../../../shared/contracts/providers/provider-lookup.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import type { PhaseResult } from '../skeleton/types.js';
import { type ContractReference, describeReference, referenceKey } from './object-reference.js';

export type ResolvedReference =
  | { state: 'NotServed' | 'NotReconciled'; message: string }
  | { state: 'Missing'; contractVersion: ContractVersion; message: string }
  | { state: 'Found'; contractVersion: ContractVersion; object: StoredObject };

/** Requeue for a kind no provider serves: slow, it only changes when a provider is installed. */
export const PROVIDER_NOT_INSTALLED_REQUEUE_SECONDS = 300;
/** Requeue while a referenced object does not exist yet (capi-contract.md §3.1). */
export const REFERENCE_MISSING_REQUEUE_SECONDS = 30;

export function contractVersionOf(contract: ProviderKindContract | undefined): ContractVersion {
  return contract?.contractVersion ?? 'v1beta2';
}

export async function resolveReference(
  store: ObjectStore,
  lookup: ProviderLookup,
  ref: ContractReference,
  namespace: string,
): Promise<ResolvedReference> {
  const described = describeReference(ref);
  if (!lookup.isServedKind(ref.apiGroup, ref.kind)) {
    return { state: 'NotServed', message: `no provider serves ${described}` };
  }
  if (!lookup.isReconciled(ref.apiGroup, ref.kind)) {
    return { state: 'NotReconciled', message: `no provider serves ${described}` };
  }
  const contractVersion = contractVersionOf(lookup.contractFor(ref.apiGroup, ref.kind));
  const object = await store.get(referenceKey(ref, namespace));
  return object
    ? { state: 'Found', contractVersion, object }
    : { state: 'Missing', contractVersion, message: `${described} ${namespace}/${ref.name} does not exist` };
}

/** The condition and requeue for a reference that cannot be used (yet); undefined when found. */
export function unresolvedCondition(
  type: string,
  missingReason: string,
  resolved: ResolvedReference,
): { condition: ConditionInput; result: PhaseResult } | undefined {
  if (resolved.state === 'Found') return undefined;
  if (resolved.state === 'Missing') {
    return {
      condition: { type, status: 'False', reason: missingReason, message: resolved.message },
      result: { requeueAfterSeconds: REFERENCE_MISSING_REQUEUE_SECONDS },
    };
  }
  return {
    condition: { type, status: 'False', reason: 'ProviderNotInstalled', message: resolved.message },
    result: { requeueAfterSeconds: PROVIDER_NOT_INSTALLED_REQUEUE_SECONDS },
  };
}

