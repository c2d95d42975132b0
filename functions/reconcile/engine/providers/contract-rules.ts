/**
 * What a provider kind's reconciler follows because of the contract role its kind plays, as data,
 * so an external provider's kinds follow it without a core change: an IPAM pool is no cluster's
 * part (ADR 0148); an InfraCluster an external system manages is left alone (ADR 0150).
 */

import { sameGroupKind } from '../../../../shared/contracts/object.js';
import type { ContractRole, ProviderKindContract } from '../../../../shared/contracts/provider-contract.js';
import type { AnyReconciler, ReconcilerDefinition } from '../skeleton/types.js';

type RoleRule = Pick<ReconcilerDefinition<never>, 'pausesWithCluster' | 'skipsExternallyManaged'>;

export const ROLE_RULES: Readonly<Partial<Record<ContractRole, RoleRule>>> = {
  // Cluster API's util/paused is the core's and the providers' of a cluster's parts; the
  // in-cluster IPAM provider's pool controller reads no Cluster.
  IPAMPool: { pausesWithCluster: false },
  // The InfraCluster contract's "Externally managed infrastructure" (ResourceIsNotExternallyManaged).
  InfrastructureCluster: { skipsExternallyManaged: true },
};

/** The reconciler with the rule of its kind's contract role, if it has one. */
export function withContractRules(reconciler: AnyReconciler, contracts: readonly ProviderKindContract[]): AnyReconciler {
  const contract = contracts.find((c) => sameGroupKind(c, reconciler.kind));
  const rule = contract ? ROLE_RULES[contract.role] : undefined;
  return rule ? { ...reconciler, ...rule } : reconciler;
}
