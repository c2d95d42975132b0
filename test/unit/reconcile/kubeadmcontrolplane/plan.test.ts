import { describe, expect, it } from 'vitest';
import { type PlanInputs, planControlPlane } from '../../../../functions/reconcile/kubeadm/controlplane/plan.js';
import { fact } from './facts.js';

const base: PlanInputs = { replicas: 3, maxSurge: 1, initialized: true, machines: [], failureDomains: [] };

describe('planControlPlane', () => {
  it.each([
    { name: 'first machine is the init machine', inputs: { initialized: false }, expected: { type: 'scaleUp', init: true } },
    { name: 'waits for init before joining', inputs: { initialized: false, machines: [fact('m1', { ready: false, hasNode: false })] }, expected: { type: 'wait', reason: 'WaitingForInitialization' } },
    { name: 'scale up one at a time into the emptiest domain', inputs: { machines: [fact('m1', { failureDomain: 'a' })], failureDomains: ['a', 'b'] }, expected: { type: 'scaleUp', init: false, failureDomain: 'b' } },
    { name: 'scale up waits for provisioning machines', inputs: { machines: [fact('m1'), fact('m2', { ready: false })] }, expected: { type: 'wait', reason: 'WaitingForMachinesReady' } },
    { name: 'nothing to do at the desired count', inputs: { machines: [fact('m1'), fact('m2'), fact('m3')] }, expected: { type: 'none' } },
    { name: 'scale down picks the oldest', inputs: { replicas: 1, machines: [fact('m2'), fact('m1'), fact('m3')] }, expected: { type: 'scaleDown', machine: 'm1' } },
    { name: 'scale down waits for deletions', inputs: { replicas: 1, machines: [fact('m1', { deleting: true }), fact('m2'), fact('m3')] }, expected: { type: 'wait', reason: 'WaitingForMachineDeletion' } },
    {
      name: 'rollout maxSurge 1: surge first',
      inputs: { machines: [fact('m1', { upToDate: false }), fact('m2', { upToDate: false }), fact('m3', { upToDate: false })] },
      expected: { type: 'scaleUp', rollout: true },
    },
    {
      name: 'rollout maxSurge 1: new machine not ready → wait',
      inputs: { machines: [fact('m1', { upToDate: false }), fact('m2', { upToDate: false }), fact('m3', { upToDate: false }), fact('m4', { ready: false })] },
      expected: { type: 'wait', reason: 'WaitingForMachinesReady' },
    },
    {
      name: 'rollout maxSurge 1: surge ready → remove an outdated one',
      inputs: { machines: [fact('m1', { upToDate: false }), fact('m2', { upToDate: false }), fact('m3', { upToDate: false }), fact('m4')] },
      expected: { type: 'scaleDown', machine: 'm1', rollout: true },
    },
    {
      name: 'rollout maxSurge 0: remove first',
      inputs: { maxSurge: 0 as const, machines: [fact('m1', { upToDate: false }), fact('m2', { upToDate: false }), fact('m3', { upToDate: false })] },
      expected: { type: 'scaleDown', machine: 'm1', rollout: true },
    },
    {
      name: 'rollout maxSurge 0: then add',
      inputs: { maxSurge: 0 as const, machines: [fact('m2', { upToDate: false }), fact('m3', { upToDate: false })] },
      expected: { type: 'scaleUp', rollout: true },
    },
    {
      name: 'remediation in progress blocks everything',
      inputs: { remediatingMachine: 'm1', machines: [fact('m1')] },
      expected: { type: 'wait', reason: 'RemediationInProgress' },
    },
  ])('$name', ({ inputs, expected }) => {
    expect(planControlPlane({ ...base, ...inputs })).toMatchObject(expected);
  });
});
