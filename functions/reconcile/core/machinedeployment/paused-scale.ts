/**
 * Pure scaling of a paused MachineDeployment (Cluster API's `sync` → `scale`,
 * core/reconcilers/machinedeployment/machinedeployment_sync.go): a paused MachineDeployment rolls
 * nothing out (no MachineSet for a new template, no old one removed) but its MachineSets still
 * follow its replicas, proportionally when several are active.
 */

import type { MachineSetView, RolloutStrategy } from './rollout-plan.js';

/** A MachineSet with the replica annotations Cluster API writes on it (read when present: objects moved from Cluster API carry them). */
export interface ScaledMachineSetView extends MachineSetView {
  /** `machinedeployment.clusters.x-k8s.io/desired-replicas`: the MachineDeployment's replicas when the set was last scaled. */
  desiredReplicas?: number;
  /** `machinedeployment.clusters.x-k8s.io/max-replicas`: those replicas plus maxSurge. */
  maxReplicas?: number;
}

export interface PausedScaleInput {
  /** The MachineDeployment's spec.replicas. */
  replicas: number;
  strategy: RolloutStrategy;
  /** The MachineDeployment's status.replicas: the proportion's base for a set without max-replicas. */
  statusReplicas: number;
  /** Oldest first; at most one is `current`. */
  sets: readonly ScaledMachineSetView[];
}

/** Next spec.replicas for the MachineSets that change; the others are absent. */
export function planPausedScale(input: PausedScaleInput): Record<string, number> {
  const { replicas, sets } = input;
  const active = sets.filter((ms) => ms.replicas > 0);
  // One active set, or none (then the current one, else the newest): it takes every replica.
  if (active.length <= 1) {
    const target = active[0] ?? sets.find((ms) => ms.current) ?? sets[sets.length - 1];
    return target && target.replicas !== replicas ? { [target.name]: replicas } : {};
  }
  const current = sets.find((ms) => ms.current);
  if (current && isSaturated(current, replicas)) {
    return Object.fromEntries(active.filter((ms) => !ms.current).map((ms) => [ms.name, 0]));
  }
  return input.strategy.type === 'RollingUpdate' ? proportionally(input, active) : {};
}

/** The current set has all the replicas, was asked for all of them, and has them all available. */
function isSaturated(current: ScaledMachineSetView, replicas: number): boolean {
  return current.replicas === replicas && current.desiredReplicas === replicas && current.availableMachines === replicas;
}

/**
 * Every active set grows or shrinks by its share of the difference between what the sets have and
 * what the MachineDeployment allows (replicas + maxSurge); the first in line (the largest; newer
 * first when growing, older first when shrinking) takes what rounding left over.
 */
function proportionally(input: PausedScaleInput, active: readonly ScaledMachineSetView[]): Record<string, number> {
  const allowed = input.replicas > 0 ? input.replicas + input.strategy.maxSurge : 0;
  const toAdd = allowed - active.reduce((n, ms) => n + ms.replicas, 0);
  if (toAdd === 0) return {};
  const age = new Map(input.sets.map((ms, index) => [ms.name, index]));
  const ordered = [...active].sort(
    (a, b) => b.replicas - a.replicas || (toAdd > 0 ? 1 : -1) * ((age.get(b.name) ?? 0) - (age.get(a.name) ?? 0)),
  );
  const next: Record<string, number> = {};
  let added = 0;
  for (const ms of ordered) {
    const share = proportion(ms, input, toAdd, added);
    next[ms.name] = ms.replicas + share;
    added += share;
  }
  const first = ordered[0];
  if (first) next[first.name] = Math.max(0, (next[first.name] ?? 0) + toAdd - added);
  return Object.fromEntries(Object.entries(next).filter(([name, want]) => want !== active.find((ms) => ms.name === name)?.replicas));
}

/** Cluster API's GetProportion: the set's fraction, never past what is still to add or remove. */
function proportion(ms: ScaledMachineSetView, input: PausedScaleInput, toAdd: number, added: number): number {
  if (ms.replicas === 0 || toAdd === added) return 0;
  const fraction = fractionOf(ms, input);
  const left = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, left) : Math.max(fraction, left);
}

/** Cluster API's getMachineSetFraction: the set's size scaled by (replicas + maxSurge) over the size it was scaled for. */
function fractionOf(ms: ScaledMachineSetView, input: PausedScaleInput): number {
  if (input.replicas === 0) return -ms.replicas;
  const base = ms.maxReplicas ?? input.statusReplicas;
  // Cluster API never divides by zero here (a set is not scaled up from nothing); nothing to share then.
  if (base <= 0) return 0;
  const wanted = (ms.replicas * (input.replicas + input.strategy.maxSurge)) / base;
  return Math.floor(wanted + 0.5) - ms.replicas;
}
