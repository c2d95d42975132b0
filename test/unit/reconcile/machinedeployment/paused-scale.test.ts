import { describe, expect, it } from 'vitest';
import { type ScaledMachineSetView, planPausedScale } from '../../../../functions/reconcile/core/machinedeployment/paused-scale.js';
import type { RolloutStrategy } from '../../../../functions/reconcile/core/machinedeployment/rollout-plan.js';

const rolling = (maxSurge: number): RolloutStrategy => ({ type: 'RollingUpdate', maxSurge, maxUnavailable: 0 });
const onDelete: RolloutStrategy = { type: 'OnDelete', maxSurge: 1, maxUnavailable: 0 };

function ms(name: string, current: boolean, replicas: number, annotations: Partial<Pick<ScaledMachineSetView, 'desiredReplicas' | 'maxReplicas'>> = {}, available = replicas): ScaledMachineSetView {
  return { name, current, replicas, liveMachines: replicas, availableMachines: available, ...annotations };
}

// Expected values worked by hand through Cluster API's scale(), GetProportion and getMachineSetFraction.
describe('planPausedScale (Cluster API machinedeployment_sync.go scale)', () => {
  it.each<{ name: string; replicas: number; strategy?: RolloutStrategy; statusReplicas?: number; sets: ScaledMachineSetView[]; expected: Record<string, number> }>([
    { name: 'one set follows the replicas up', replicas: 5, sets: [ms('cur', true, 3)], expected: { cur: 5 } },
    { name: 'one set at the replicas: nothing', replicas: 3, sets: [ms('cur', true, 3)], expected: {} },
    { name: 'template changed while paused: the only set, an old one, takes every replica', replicas: 4, sets: [ms('old', false, 3)], expected: { old: 4 } },
    { name: 'one active old set beside an empty current one takes them', replicas: 5, sets: [ms('old', false, 3), ms('cur', true, 0)], expected: { old: 5 } },
    { name: 'no active set: the current one takes them', replicas: 2, sets: [ms('old', false, 0), ms('cur', true, 0)], expected: { cur: 2 } },
    { name: 'no active set and no current one: the newest', replicas: 2, sets: [ms('a', false, 0), ms('b', false, 0)], expected: { b: 2 } },
    {
      name: 'a saturated current set: the old sets go to zero',
      replicas: 3,
      sets: [ms('old', false, 1), ms('cur', true, 3, { desiredReplicas: 3 })],
      expected: { old: 0 },
    },
    {
      name: 'all replicas on the current set but no desired-replicas annotation: not saturated, nothing to add',
      replicas: 3,
      statusReplicas: 4,
      sets: [ms('old', false, 1), ms('cur', true, 3)],
      expected: {},
    },
    {
      name: 'scale up by max-replicas: newer first on a tie, each capped by what is left',
      replicas: 10,
      sets: [ms('old', false, 3, { maxReplicas: 6 }), ms('cur', true, 3, { maxReplicas: 6 })],
      expected: { cur: 6, old: 5 },
    },
    {
      name: 'scale down by max-replicas: older first on a tie, the leftover on the first',
      replicas: 2,
      sets: [ms('old', false, 3, { maxReplicas: 6 }), ms('cur', true, 3, { maxReplicas: 6 })],
      expected: { old: 1, cur: 2 },
    },
    {
      name: 'no max-replicas: the share is taken against status.replicas',
      replicas: 10,
      statusReplicas: 6,
      sets: [ms('old', false, 2), ms('cur', true, 4)],
      expected: { cur: 7, old: 4 },
    },
    { name: 'to zero: every active set to zero', replicas: 0, sets: [ms('old', false, 2), ms('cur', true, 3)], expected: { old: 0, cur: 0 } },
    { name: 'OnDelete with two active sets: nothing', replicas: 5, strategy: onDelete, sets: [ms('old', false, 2), ms('cur', true, 2)], expected: {} },
    {
      name: 'nothing to take a share against (status.replicas 0, no annotation): the leftover on the first',
      replicas: 4,
      statusReplicas: 0,
      sets: [ms('old', false, 1), ms('cur', true, 1)],
      expected: { cur: 4 },
    },
  ])('$name', ({ replicas, strategy, statusReplicas, sets, expected }) => {
    expect(planPausedScale({ replicas, strategy: strategy ?? rolling(1), statusReplicas: statusReplicas ?? 0, sets })).toEqual(expected);
  });
});
