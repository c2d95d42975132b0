/** Failure-domain choices of util/failuredomains (PickFewest / PickMost) and the scale-down victim. */

import { isRecord } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import type { MachineFacts } from './machine-facts.js';

/** Names of control-plane failure domains from Cluster `status.failureDomains` (v1beta2 list; v1beta1 map tolerated). */
export function controlPlaneFailureDomains(cluster: KubeObject): string[] {
  const raw = cluster.status?.failureDomains;
  if (Array.isArray(raw)) {
    return raw
      .filter((fd) => isRecord(fd) && typeof fd.name === 'string' && fd.controlPlane !== false)
      .map((fd) => (isRecord(fd) && typeof fd.name === 'string' ? fd.name : ''))
      .sort();
  }
  if (isRecord(raw)) {
    return Object.entries(raw)
      .filter(([, fd]) => isRecord(fd) && fd.controlPlane !== false)
      .map(([name]) => name)
      .sort();
  }
  return [];
}

function countIn(machines: readonly MachineFacts[], fd: string): number {
  return machines.filter((m) => m.failureDomain === fd).length;
}

/** Scale-up target: fewest up-to-date non-deleting machines; tie → fewest machines; tie → name. */
export function pickFailureDomainForScaleUp(
  failureDomains: readonly string[],
  machines: readonly MachineFacts[],
): string | undefined {
  const live = machines.filter((m) => !m.deleting);
  const upToDate = live.filter((m) => m.upToDate);
  const ranked = [...failureDomains].sort(
    (a, b) => countIn(upToDate, a) - countIn(upToDate, b) || countIn(live, a) - countIn(live, b) || a.localeCompare(b),
  );
  return ranked[0];
}

function olderFirst(a: MachineFacts, b: MachineFacts): number {
  return a.creationTimestamp.localeCompare(b.creationTimestamp) || a.name.localeCompare(b.name);
}

/**
 * Scale-down / rollout victim: the first non-empty of {delete-annotated outdated, delete-annotated,
 * outdated, all}; then the failure domain holding the most machines; then the oldest.
 */
export function pickMachineToDelete(machines: readonly MachineFacts[]): MachineFacts | undefined {
  const live = machines.filter((m) => !m.deleting);
  const tiers = [
    live.filter((m) => m.deleteAnnotated && !m.upToDate),
    live.filter((m) => m.deleteAnnotated),
    live.filter((m) => !m.upToDate),
    live,
  ];
  const candidates = tiers.find((tier) => tier.length > 0);
  if (!candidates) return undefined;
  const domainOf = (m: MachineFacts) => m.failureDomain ?? '';
  const domains = [...new Set(candidates.map(domainOf))].sort(
    (a, b) => live.filter((m) => domainOf(m) === b).length - live.filter((m) => domainOf(m) === a).length || a.localeCompare(b),
  );
  const domain = domains[0];
  return candidates.filter((m) => domainOf(m) === domain).sort(olderFirst)[0];
}
