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
