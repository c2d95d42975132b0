/**
 * Pure rollout planning for a MachineDeployment (capi-contract.md §1.3, CAPI's rolloutRolling /
 * rolloutOnDelete): given its MachineSets, the replicas each should have next.
 */

export type RolloutStrategyType = 'RollingUpdate' | 'OnDelete';

export interface RolloutStrategy {
  type: RolloutStrategyType;
  maxSurge: number;
  maxUnavailable: number;
}

export interface MachineSetView {
  name: string;
  /** Matches the MachineDeployment's current template hash. */
  current: boolean;
  /** spec.replicas */
  replicas: number;
  /** Machines not being deleted. */
  liveMachines: number;
  /** Live Machines with Available=True. */
  availableMachines: number;
}

export interface RolloutPlan {
  /** Next spec.replicas per MachineSet name (only the ones in the input). */
  replicas: Record<string, number>;
  /** Old MachineSets that are empty and can go. */
  remove: string[];
}

/** `3` or `"25%"` of `replicas` (surge rounds up, unavailable down, as Kubernetes does). */
export function resolveIntOrPercent(value: unknown, replicas: number, roundUp: boolean, fallback: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string') {
    const match = /^(\d+)%$/.exec(value);
    if (match) {
      const exact = (Number(match[1]) * replicas) / 100;
      return roundUp ? Math.ceil(exact) : Math.floor(exact);
    }
  }
  return fallback;
}

/** Available Machines an MS will keep: never more than it is asked to have. */
function counted(ms: MachineSetView): number {
  return Math.min(ms.availableMachines, ms.replicas);
}

function planRolling(replicas: number, strategy: RolloutStrategy, current: MachineSetView, old: MachineSetView[]): Record<string, number> {
  const next: Record<string, number> = {};
  const total = current.replicas + old.reduce((n, ms) => n + ms.replicas, 0);
  const maxTotal = replicas + strategy.maxSurge;
  let newTarget = current.replicas;
  if (newTarget > replicas) newTarget = replicas;
  else if (newTarget < replicas && total < maxTotal) newTarget = Math.min(replicas, newTarget + (maxTotal - total));
  next[current.name] = newTarget;

  const minAvailable = replicas - strategy.maxUnavailable;
  const allAvailable = counted(current) + old.reduce((n, ms) => n + counted(ms), 0);
  const newUnavailable = Math.max(0, newTarget - current.availableMachines);
  let budget = Math.max(0, allAvailable - minAvailable - newUnavailable);
  for (const ms of old) {
    // Unavailable replicas of an old MachineSet cost no availability: drop them first.
    const unavailable = Math.max(0, ms.replicas - counted(ms));
    const fromAvailable = Math.min(counted(ms), budget);
    budget -= fromAvailable;
    next[ms.name] = ms.replicas - unavailable - fromAvailable;
  }
  return next;
}

function planOnDelete(replicas: number, current: MachineSetView, old: MachineSetView[]): Record<string, number> {
  const next: Record<string, number> = {};
  let oldLive = 0;
  for (const ms of old) {
    next[ms.name] = Math.min(ms.replicas, ms.liveMachines);
    oldLive += next[ms.name] ?? 0;
  }
  next[current.name] = Math.max(0, replicas - oldLive);
  return next;
}

/** `sets` lists old MachineSets oldest first; exactly one is `current`. */
export function planRollout(replicas: number, strategy: RolloutStrategy, sets: readonly MachineSetView[]): RolloutPlan {
  const current = sets.find((ms) => ms.current);
  const old = sets.filter((ms) => !ms.current);
  if (!current) return { replicas: {}, remove: [] };
  const next =
    old.length === 0
      ? { [current.name]: replicas }
      : strategy.type === 'OnDelete'
        ? planOnDelete(replicas, current, old)
        : planRolling(replicas, strategy, current, old);
  const remove = old.filter((ms) => next[ms.name] === 0 && ms.liveMachines === 0).map((ms) => ms.name);
  return { replicas: next, remove };
}
