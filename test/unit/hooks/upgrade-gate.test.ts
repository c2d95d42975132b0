/** The built-in upgrade gate: approval annotation per target version, maintenance window, retry delay. */

import { describe, expect, it } from 'vitest';
import { parseMaintenanceWindow, secondsUntilWindow, upgradeGateDecision, upgradeGateExtension } from '../../../functions/hooks/extensions/upgrade-gate.js';

const at = (hhmm: string) => new Date(`2026-11-30T${hhmm}:00Z`);
const APPROVED = 'upgrade-gate.capless.dev/approved-version';

describe('upgradeGateDecision', () => {
  it.each<[string, Record<string, string> | undefined, Record<string, string>, string, { status?: string; retryAfterSeconds?: number }]>([
    ['no approval, no window: held for the default 60 s', undefined, {}, '10:00', { retryAfterSeconds: 60 }],
    ['approved for this version: passes', { [APPROVED]: 'v1.34.0' }, {}, '10:00', {}],
    ['approved for another version: held', { [APPROVED]: 'v1.33.0' }, {}, '10:00', { retryAfterSeconds: 60 }],
    ['inside the window: passes', undefined, { maintenanceWindow: '02:00-06:00' }, '03:00', {}],
    ['before the window: held until it opens when sooner than the retry', undefined, { maintenanceWindow: '02:00-06:00', retryAfterSeconds: '600' }, '01:55', { retryAfterSeconds: 300 }],
    ['after the window: held for the retry delay', undefined, { maintenanceWindow: '02:00-06:00' }, '07:00', { retryAfterSeconds: 60 }],
    ['a window over midnight, inside', undefined, { maintenanceWindow: '22:00-02:00' }, '23:30', {}],
    ['a window over midnight, inside after midnight', undefined, { maintenanceWindow: '22:00-02:00' }, '01:00', {}],
    ['a malformed window is a Failure', undefined, { maintenanceWindow: 'weekends' }, '03:00', { status: 'Failure' }],
  ])('%s', (_name, annotations, settings, time, expected) => {
    const answer = upgradeGateDecision({ toVersion: 'v1.34.0', annotations, settings, now: at(time) });
    expect(answer.status).toBe(expected.status);
    expect(answer.retryAfterSeconds).toBe(expected.retryAfterSeconds);
  });

  it.each([
    ['02:00-06:00', '01:00', 3600],
    ['02:00-06:00', '06:00', 72000],
    ['02:00-06:00', '02:00', 0],
  ])('window %s at %s opens in %i s', (text, time, seconds) => {
    const window = parseMaintenanceWindow(text);
    expect(window && secondsUntilWindow(window, at(time))).toBe(seconds);
  });

  it('the extension says how to approve in its message', async () => {
    const gate = upgradeGateExtension({ now: () => at('10:00') });
    const response = await gate.handle({
      method: 'POST',
      path: '/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterupgrade/before-cluster-upgrade',
      body: JSON.stringify({ cluster: { metadata: { name: 'c1' } }, fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0' }),
    });
    expect(JSON.parse(response.body)).toMatchObject({ status: 'Success', retryAfterSeconds: 60, message: expect.stringContaining(`${APPROVED}=v1.34.0`) });
  });
});
