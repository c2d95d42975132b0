import type { StatusUpdate } from '../../engine/skeleton/types.js';
import type { ClaimScope } from './scope.js';

/** `status.addressRef` once the claim holds an IPAddress; Ready is among the scope's conditions. */
export function computeClaimStatus(s: ClaimScope): StatusUpdate {
  return { fields: s.addressName ? { addressRef: { name: s.addressName } } : {} };
}
