/** Names the in-cluster IPAM provider and capless's address reservations agree on. */

import type { GroupKind } from '../../../shared/contracts/object.js';
import { IPAM_GROUP } from '../../../shared/contracts/schemas/groups.js';

export const IPAM_V1BETA2 = `${IPAM_GROUP}/v1beta2`;
export const POOL_API_VERSION = `${IPAM_GROUP}/v1alpha2`;

export const IP_ADDRESS_CLAIM_KIND: GroupKind = { group: IPAM_GROUP, kind: 'IPAddressClaim' };
export const IP_ADDRESS_KIND: GroupKind = { group: IPAM_GROUP, kind: 'IPAddress' };
export const IN_CLUSTER_POOL_KIND: GroupKind = { group: IPAM_GROUP, kind: 'InClusterIPPool' };
export const GLOBAL_IN_CLUSTER_POOL_KIND: GroupKind = { group: IPAM_GROUP, kind: 'GlobalInClusterIPPool' };
export const IN_CLUSTER_POOL_KINDS: readonly GroupKind[] = [IN_CLUSTER_POOL_KIND, GLOBAL_IN_CLUSTER_POOL_KIND];

/** The in-cluster provider's finalizers (IC `internal/controllers`, `pkg/ipamutil`). */
export const FINALIZER_RELEASE_ADDRESS = 'ipam.cluster.x-k8s.io/ReleaseAddress';
export const FINALIZER_PROTECT_ADDRESS = 'ipam.cluster.x-k8s.io/ProtectAddress';
export const FINALIZER_PROTECT_POOL = 'ipam.cluster.x-k8s.io/ProtectPool';

export { CLUSTER_SCOPE_NAMESPACE } from '../../../shared/contracts/object.js';

/**
 * capless's own bookkeeping kind: one item per allocated (pool, address), created with
 * create-if-absent. Not served by the API; docs/adr/0070-ip-address-reservations.md.
 */
export const RESERVATION_API_VERSION = 'ipam.capless.dev/v1';
export const RESERVATION_KIND: GroupKind = { group: 'ipam.capless.dev', kind: 'IPAddressReservation' };
export const LABEL_RESERVATION_POOL_KIND = 'ipam.capless.dev/pool-kind';
export const LABEL_RESERVATION_POOL_NAME = 'ipam.capless.dev/pool-name';

/** Condition and reasons on claims (C14 `api/ipam/v1beta2`). */
export const CONDITION_READY = 'Ready';
export const REASON_ALLOCATED = 'Allocated';
export const REASON_ALLOCATION_FAILED = 'AllocationFailed';
export const REASON_POOL_NOT_READY = 'PoolNotReady';
export const REASON_POOL_EXHAUSTED = 'PoolExhausted';
