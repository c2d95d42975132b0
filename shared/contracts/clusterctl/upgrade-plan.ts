/**
 * clusterctl's `upgrade plan` (cmd/clusterctl/client/cluster/upgrader.go, upgrader_info.go),
 * as a pure function of the installed providers, their metadata and the versions available:
 * candidate contracts are those of the core provider's release series not older than its current
 * minor; per contract each provider gets the newest non-prerelease version newer than its current
 * one whose release series maps to that contract; a plan that changes contract is dropped when
 * any provider has no target (all providers change contract together).
 */

import type { ProviderType } from '../provider-contract.js';
import type { ProviderMetadata, ReleaseSeries } from './metadata.js';
import { compareSemVer, parseSemVer, type SemVer, versionTag } from './semver.js';

export interface InstalledProvider {
  /** The inventory name: `cluster-api`, `bootstrap-kubeadm`, `infrastructure-in-memory`… */
  name: string;
  namespace: string;
  type: ProviderType;
  version: string;
  metadata: ProviderMetadata;
  /** Versions the provider's repository offers. */
  availableVersions: readonly string[];
}

export interface UpgradeItem {
  name: string;
  namespace: string;
  type: ProviderType;
  version: string;
  /** '' when there is nothing newer on this contract ("Already up to date"). */
  nextVersion: string;
}

export interface UpgradePlan {
  contract: string;
  providers: UpgradeItem[];
}

/** A provider combination clusterctl refuses to plan for, with the reason it prints. */
export class UpgradePlanError extends Error {}

const TYPE_ORDER: readonly ProviderType[] = [
  'CoreProvider',
  'BootstrapProvider',
  'ControlPlaneProvider',
  'InfrastructureProvider',
  'IPAMProvider',
  'RuntimeExtensionProvider',
  'AddonProvider',
];

interface UpgradeInfo {
  provider: InstalledProvider;
  current: SemVer;
  next: SemVer[];
}

export function planUpgrade(providers: readonly InstalledProvider[]): UpgradePlan[] {
  const cores = providers.filter((p) => p.type === 'CoreProvider');
  if (cores.length === 0) return [];
  if (cores.length > 1) throw new UpgradePlanError(`invalid management cluster: there should a core provider, found ${cores.length}`);
  const infos = providers.map(upgradeInfo);
  const core = infos.find((i) => i.provider.type === 'CoreProvider');
  if (!core) return [];
  const currentContract = seriesFor(core.provider.metadata, core.current)?.contract;
  const plans: UpgradePlan[] = [];
  for (const contract of contractsForUpgrade(core)) {
    const items = sortItems(infos.map((info) => ({ ...itemOf(info.provider), nextVersion: latestNextVersion(info, contract) })));
    const partial = items.some((item) => item.nextVersion === '');
    if (partial && contract !== currentContract) continue;
    plans.push({ contract, providers: items });
  }
  return plans;
}

function upgradeInfo(provider: InstalledProvider): UpgradeInfo {
  const current = parseSemVer(provider.version);
  if (!current) throw new UpgradePlanError(`invalid version: ${JSON.stringify(provider.version)} for the provider ${provider.name} is not a semantic version`);
  if (!seriesFor(provider.metadata, current)) {
    throw new UpgradePlanError(`invalid provider metadata: version ${provider.version} (the current version) for the provider ${provider.name} does not match any release series`);
  }
  const next: SemVer[] = [];
  for (const available of provider.availableVersions) {
    const version = parseSemVer(available);
    // Versions that are not semver, pre-releases and versions not newer are never upgrade targets.
    if (version?.preRelease !== '' || compareSemVer(current, version) >= 0) continue;
    if (!seriesFor(provider.metadata, version)) {
      throw new UpgradePlanError(`invalid provider metadata: version ${available} for the provider ${provider.name} does not match any release series`);
    }
    next.push(version);
  }
  return { provider, current, next };
}

function seriesFor(metadata: ProviderMetadata, version: SemVer): ReleaseSeries | undefined {
  return metadata.releaseSeries.find((s) => s.major === version.major && s.minor === version.minor);
}

function contractsForUpgrade(core: UpgradeInfo): string[] {
  const contracts = new Set<string>();
  for (const series of core.provider.metadata.releaseSeries) {
    const older = core.current.major > series.major || (core.current.major === series.major && core.current.minor > series.minor);
    if (!older) contracts.add(series.contract);
  }
  return [...contracts].sort();
}

function latestNextVersion(info: UpgradeInfo, contract: string): string {
  let latest: SemVer | undefined;
  for (const series of info.provider.metadata.releaseSeries) {
    if (series.contract !== contract) continue;
    for (const version of info.next) {
      if (version.major !== series.major || version.minor !== series.minor) continue;
      if (!latest || compareSemVer(latest, version) < 0) latest = version;
    }
  }
  return latest ? versionTag(latest) : '';
}

function itemOf(provider: InstalledProvider): Omit<UpgradeItem, 'nextVersion'> {
  return { name: provider.name, namespace: provider.namespace, type: provider.type, version: provider.version };
}

/** By type (clusterctl's Order()), then name, then namespace. */
function sortItems(items: UpgradeItem[]): UpgradeItem[] {
  return [...items].sort(
    (a, b) => TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type) || a.name.localeCompare(b.name) || a.namespace.localeCompare(b.namespace),
  );
}

/** `clusterctl upgrade plan`'s output for the plans (after its cert-manager lines). */
export function renderUpgradePlan(plans: readonly UpgradePlan[], supportedContract: string): string {
  const lines = ['Checking new release availability...'];
  if (plans.length === 0) {
    lines.push('There are no providers in the cluster. Please use clusterctl init to initialize a Cluster API management cluster.');
    return `${lines.join('\n')}\n`;
  }
  for (const plan of plans) {
    lines.push('', `Latest release available for the ${plan.contract} API Version of Cluster API (contract):`, '');
    const rows = [['NAME', 'NAMESPACE', 'TYPE', 'CURRENT VERSION', 'NEXT VERSION']];
    for (const item of plan.providers) rows.push([item.name, item.namespace, item.type, item.version, item.nextVersion || 'Already up to date']);
    lines.push(...tabwrite(rows), '');
    if (!plan.providers.some((item) => item.nextVersion !== '')) lines.push('You are already up to date!');
    else if (plan.contract === supportedContract) lines.push('To apply it, upgrade capless (its built-in providers) and the external providers, then run `capless init` to record their versions.');
    else lines.push(`The current version of capless could not upgrade to ${plan.contract} contract (only ${supportedContract} supported).`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** Go's tabwriter with minwidth 10, padding 3, as clusterctl configures it. */
function tabwrite(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(10, ...rows.map((r) => (r[c] ?? '').length + 3))) ?? [];
  return rows.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join(''));
}
