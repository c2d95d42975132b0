import type { GroupKind } from './object.js';

/** The Cluster API contract a provider kind follows (capi-contract.md §2). */
export type ContractVersion = 'v1beta1' | 'v1beta2';

/** Which contract a provider kind fulfils for the core. */
export type ContractRole =
  | 'InfrastructureCluster'
  | 'InfrastructureMachine'
  | 'BootstrapConfig'
  | 'ControlPlane'
  | 'IPAMPool';

/** One provider kind as the core sees it: role, contract version, and its template kind if any. */
export interface ProviderKindContract extends GroupKind {
  role: ContractRole;
  contractVersion: ContractVersion;
  /** `<Kind>Template`, mandatory for InfraMachine and BootstrapConfig. */
  templateKind?: string;
}

/** clusterctl provider types, in clusterctl's Order(). */
export type ProviderType =
  | 'CoreProvider'
  | 'BootstrapProvider'
  | 'ControlPlaneProvider'
  | 'InfrastructureProvider'
  | 'IPAMProvider'
  | 'RuntimeExtensionProvider'
  | 'AddonProvider';

/**
 * One IAM statement a provider's reconciler needs beyond the object table, as data: the CDK
 * construct turns it into a policy statement on that kind's function (no hand edits per provider).
 */
export interface ProviderPermission {
  readonly actions: readonly string[];
  readonly resources: readonly string[];
  /** IAM condition block: operator → key → value(s). */
  readonly conditions?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

/** Cloud events routed to a kind's queue (an EventBridge rule on AWS), as data. */
export interface ProviderEventRule {
  /** Construct id of the rule, unique within the kind. */
  readonly id: string;
  readonly description: string;
  /** An EventBridge event pattern. */
  readonly eventPattern: Readonly<Record<string, unknown>>;
}

/** A kind a provider reconciles, and what its function needs besides the object table. */
export interface ReconciledKindDeclaration extends GroupKind {
  /** The reconciler reads or writes Secrets (bootstrap data, kubeconfigs). */
  readonly needsSecrets: boolean;
  readonly permissions?: readonly ProviderPermission[];
  readonly eventRules?: readonly ProviderEventRule[];
}
