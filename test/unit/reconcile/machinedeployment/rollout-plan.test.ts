import { describe, expect, it } from 'vitest';
import {
  type MachineSetView,
  type RolloutStrategy,
  planRollout,
  resolveIntOrPercent,
} from '../../../../functions/reconcile/core/machinedeployment/rollout-plan.js';

const rolling = (maxSurge: number, maxUnavailable: number): RolloutStrategy => ({ type: 'RollingUpdate', maxSurge, maxUnavailable });
const onDelete: RolloutStrategy = { type: 'OnDelete', maxSurge: 1, maxUnavailable: 0 };

function ms(name: string, current: boolean, replicas: number, live = replicas, available = live): MachineSetView {
  return { name, current, replicas, liveMachines: live, availableMachines: available };
}

describe('planRollout', () => {
  it.each<[string, number, RolloutStrategy, MachineSetView[], Record<string, number>, string[]]>([
    ['only current: scale up', 4, rolling(1, 0), [ms('new', true, 2)], { new: 4 }, []],
    ['only current: scale down', 1, rolling(1, 0), [ms('new', true, 4)], { new: 1 }, []],
    ['surge: new MS gets one, old untouched while new is unavailable', 2, rolling(1, 0), [ms('old', false, 2), ms('new', true, 0)], { old: 2, new: 1 }, []],
    ['new available: old scales down by one', 2, rolling(1, 0), [ms('old', false, 2), ms('new', true, 1, 1, 1)], { old: 1, new: 1 }, []],
    ['total at replicas again: new grows, old waits', 2, rolling(1, 0), [ms('old', false, 1, 1, 1), ms('new', true, 1, 1, 1)], { old: 1, new: 2 }, []],
    ['new unavailable blocks scale down', 2, rolling(1, 0), [ms('old', false, 1, 1, 1), ms('new', true, 2, 2, 1)], { old: 1, new: 2 }, []],
    ['done: old goes to zero', 2, rolling(1, 0), [ms('old', false, 1, 1, 1), ms('new', true, 2, 2, 2)], { old: 0, new: 2 }, []],
    ['empty old MachineSet is removed', 2, rolling(1, 0), [ms('old', false, 0, 0, 0), ms('new', true, 2)], { old: 0, new: 2 }, ['old']],
    ['old at zero with a live Machine is kept until it is gone', 2, rolling(1, 0), [ms('old', false, 0, 1, 0), ms('new', true, 2)], { old: 0, new: 2 }, []],
    ['maxUnavailable 1 lets old drop before new is ready', 2, rolling(0, 1), [ms('old', false, 2), ms('new', true, 0)], { old: 1, new: 0 }, []],
    ['unavailable old replicas go first and cost nothing', 2, rolling(1, 0), [ms('old', false, 2, 2, 1), ms('new', true, 1, 1, 0)], { old: 1, new: 1 }, []],
    ['available count is capped at spec replicas', 2, rolling(1, 0), [ms('old', false, 1, 2, 2), ms('new', true, 2, 2, 1)], { old: 1, new: 2 }, []],
    ['OnDelete: old keeps what is left, new takes the rest', 3, onDelete, [ms('old', false, 3, 2, 2), ms('new', true, 0)], { old: 2, new: 1 }, []],
    ['OnDelete: all old deleted', 3, onDelete, [ms('old', false, 3, 0, 0), ms('new', true, 1)], { old: 0, new: 3 }, ['old']],
    ['no current MachineSet: nothing planned', 3, rolling(1, 0), [ms('old', false, 3)], {}, []],
  ])('%s', (_name, replicas, strategy, sets, expected, remove) => {
    expect(planRollout(replicas, strategy, sets)).toEqual({ replicas: expected, remove });
  });
});

describe('resolveIntOrPercent', () => {
  it.each<[unknown, number, boolean, number]>([
    [2, 10, true, 2],
    ['25%', 10, true, 3],
    ['25%', 10, false, 2],
    ['0%', 10, true, 0],
    ['x', 10, true, 7],
    [-1, 10, true, 7],
    [undefined, 10, false, 7],
  ])('%s of %i (round up %s) → %i', (value, replicas, up, expected) => {
    expect(resolveIntOrPercent(value, replicas, up, 7)).toBe(expected);
  });
});
