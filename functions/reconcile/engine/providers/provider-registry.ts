/**
 * The provider registry: every provider, built-in or external, registers the kinds it serves,
 * the contract each kind follows and the reconcilers it brings. The core reads providers only
 * through this lookup and the contract accessors in shared/contracts/providers/.
 */

import type { KindInfo } from '../../../../shared/contracts/kinds.js';
import { sameGroupKind } from '../../../../shared/contracts/object.js';
import type { ProviderKindContract, ProviderType } from '../../../../shared/contracts/provider-contract.js';
import type { ProviderLookup } from '../../../../shared/contracts/providers/provider-lookup.js';
import type { AnyReconciler } from '../skeleton/types.js';
import { withContractRules } from './contract-rules.js';
import { withContractWatches } from './contract-watches.js';

export interface ProviderRegistration {
  name: string;
  type: ProviderType;
  kinds: KindInfo[];
  contracts: ProviderKindContract[];
  reconcilers: AnyReconciler[];
}

function gk(group: string, kind: string): string {
  return `${group}/${kind}`;
}

export class ProviderRegistry implements ProviderLookup {
  private readonly registrations: ProviderRegistration[] = [];
  private readonly kindOwner = new Map<string, string>();
  private readonly contractsByKind = new Map<string, ProviderKindContract>();
  private readonly reconcilersByKind = new Map<string, AnyReconciler>();

  /** Adds a provider; a kind, contract or reconciler already registered by another provider is an error. */
  registerProvider(registration: ProviderRegistration): this {
    for (const contract of registration.contracts) {
      if (!registration.kinds.some((k) => sameGroupKind(k, contract))) {
        throw new Error(`provider ${registration.name}: contract for ${contract.kind}.${contract.group} names a kind it does not serve`);
      }
    }
    for (const info of registration.kinds) {
      const key = gk(info.group, info.kind);
      const owner = this.kindOwner.get(key);
      if (owner !== undefined && owner !== registration.name) {
        throw new Error(`provider ${registration.name}: kind ${info.kind}.${info.group} is already served by ${owner}`);
      }
      this.kindOwner.set(key, registration.name);
    }
    for (const contract of registration.contracts) this.contractsByKind.set(gk(contract.group, contract.kind), contract);
    for (const reconciler of registration.reconcilers) {
      const key = gk(reconciler.kind.group, reconciler.kind.kind);
      if (this.reconcilersByKind.has(key)) throw new Error(`provider ${registration.name}: a reconciler for ${key} is already registered`);
      this.reconcilersByKind.set(key, reconciler);
    }
    this.registrations.push(registration);
    return this;
  }

  contractFor(group: string, kind: string): ProviderKindContract | undefined {
    return this.contractsByKind.get(gk(group, kind));
  }

  isServedKind(group: string, kind: string): boolean {
    return this.kindOwner.has(gk(group, kind));
  }

  isReconciled(group: string, kind: string): boolean {
    return this.reconcilersByKind.has(gk(group, kind));
  }

  providerOf(group: string, kind: string): string | undefined {
    return this.kindOwner.get(gk(group, kind));
  }

  providerTypeOf(group: string, kind: string): ProviderType | undefined {
    const name = this.providerOf(group, kind);
    return this.registrations.find((r) => r.name === name)?.type;
  }

  reconcilerFor(group: string, kind: string): AnyReconciler | undefined {
    const reconciler = this.reconcilersByKind.get(gk(group, kind));
    return reconciler && withContract(reconciler, [...this.contractsByKind.values()]);
  }

  /**
   * Every reconciler; core ones watch every registered provider kind of the roles they follow,
   * and a provider kind's follows the rule of its role.
   */
  reconcilers(): AnyReconciler[] {
    const contracts = [...this.contractsByKind.values()];
    return [...this.reconcilersByKind.values()].map((r) => withContract(r, contracts));
  }

  kinds(): KindInfo[] {
    return this.registrations.flatMap((r) => r.kinds);
  }

  providers(): readonly ProviderRegistration[] {
    return this.registrations;
  }
}

function withContract(reconciler: AnyReconciler, contracts: readonly ProviderKindContract[]): AnyReconciler {
  return withContractRules(withContractWatches(reconciler, contracts), contracts);
}
