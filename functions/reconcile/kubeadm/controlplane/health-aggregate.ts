/**
 * A KubeadmControlPlane condition aggregated from conditions on its Machines, as Cluster API's
 * aggregateConditionsFromMachinesToKCP does it: False when a Machine reports one False (or the
 * control plane found an error of its own), else Unknown when a provisioned Machine reports one
 * Unknown, else True when a Machine reports one True, else Unknown ("No Machines reporting …").
 * The message groups Machines that say the same thing, largest group first. Pure.
 */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';

export interface MachineReport {
  name: string;
  /** spec.providerID set: an Unknown from a Machine not provisioned yet counts as nothing. */
  provisioned: boolean;
  conditions: readonly ConditionInput[];
}

export interface Aggregation {
  type: string;
  /** The word for what the Machines report ("control plane", "etcd member"). */
  note: string;
  /** Problems the control plane found itself (an etcd member no Machine has). */
  errors?: readonly string[];
}

/** Cluster API's clog.ListToString: at most `max` names, then how many more. */
export function listNames(names: readonly string[], max = 3): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown}, ... (${names.length - max} more)` : shown;
}

function machineMessage(report: MachineReport): { message?: string; error: boolean; unknown: boolean; info: boolean } {
  const lines: string[] = [];
  const distinct = new Set<string>();
  let error = false;
  let unknown = false;
  let info = false;
  for (const condition of report.conditions) {
    distinct.add(condition.message ?? '');
    const line = `  * ${condition.type}: ${condition.message || `condition is ${condition.status}`}`;
    if (condition.status === 'True') info = true;
    else if (condition.status === 'False') {
      error = true;
      lines.push(line);
    } else if (!report.provisioned) info = true;
    else {
      unknown = true;
      lines.push(line);
    }
  }
  if (lines.length === 0) return { error, unknown, info };
  const [only] = distinct;
  const message = report.conditions.length > 1 && distinct.size === 1 ? `  * Control plane components: ${only}` : lines.join('\n');
  return { message, error, unknown, info };
}

export function aggregateMachineConditions(reports: readonly MachineReport[], aggregation: Aggregation): ConditionInput {
  const byMessage = new Map<string, string[]>();
  let errors = false;
  let unknown = false;
  let info = false;
  for (const report of reports) {
    const seen = machineMessage(report);
    errors ||= seen.error;
    unknown ||= seen.unknown;
    info ||= seen.info;
    if (seen.message !== undefined) byMessage.set(seen.message, [...(byMessage.get(seen.message) ?? []), report.name]);
  }
  const groups = [...byMessage.entries()].map(([message, names]) => ({ message, names: [...names].sort() }));
  groups.sort((a, b) => b.names.length - a.names.length || (a.names.join(',') < b.names.join(',') ? -1 : 1));
  const messages = [
    ...groups.map((g) => `* Machine${g.names.length > 1 ? 's' : ''} ${listNames(g.names)}:\n${g.message}`),
    ...(aggregation.errors ?? []).map((e) => `* ${e}`),
  ];
  const message = messages.join('\n');
  if (errors || (aggregation.errors?.length ?? 0) > 0) return { type: aggregation.type, status: 'False', reason: 'NotHealthy', message };
  if (unknown) return { type: aggregation.type, status: 'Unknown', reason: 'HealthUnknown', message };
  if (info) return { type: aggregation.type, status: 'True', reason: 'Healthy' };
  return { type: aggregation.type, status: 'Unknown', reason: 'HealthUnknown', message: `No Machines reporting ${aggregation.note} status` };
}
