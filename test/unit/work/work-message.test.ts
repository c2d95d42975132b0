import { describe, expect, it } from 'vitest';
import { nextHop, parseWorkMessage } from '../../../shared/contracts/work-message.js';

const NOW = 1_000_000;

describe('Function: nextHop', () => {
  it.each<[string, number, number | undefined, ReturnType<typeof nextHop>]>([
    ['already due', NOW - 5_000, undefined, 'due'],
    ['due within the slack', NOW + 400, undefined, 'due'],
    ['one second out', NOW + 1_000, undefined, { delaySeconds: 1 }],
    ['rounds partial seconds up', NOW + 1_200, undefined, { delaySeconds: 2 }],
    ['exactly 900 s', NOW + 900_000, undefined, { delaySeconds: 900 }],
    ['an hour: first hop is 900 s', NOW + 3_600_000, undefined, { delaySeconds: 900 }],
    ['a day with 1 s hops (tests)', NOW + 86_400_000, 1, { delaySeconds: 1 }],
  ])('%s', (_title, dueAt, maxHop, expected) => {
    expect(nextHop(dueAt, NOW, maxHop)).toEqual(expected);
  });
});

describe('Function: parseWorkMessage', () => {
  const key = { group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: 'm1' };
  it.each<[string, string, boolean]>([
    ['an immediate request', JSON.stringify({ v: 1, key }), true],
    ['a delayed retry', JSON.stringify({ v: 1, key, dueAt: NOW, failures: 2 }), true],
    ['the core group (empty string)', JSON.stringify({ v: 1, key: { ...key, group: '' } }), true],
    ['not JSON', '{nope', false],
    ['an unknown version', JSON.stringify({ v: 2, key }), false],
    ['a key without a name', JSON.stringify({ v: 1, key: { ...key, name: '' } }), false],
    ['negative failures', JSON.stringify({ v: 1, key, failures: -1 }), false],
    ['a requeue naming the run that asked for it', JSON.stringify({ v: 1, key, dueAt: NOW, awaits: 'msg-1:1' }), true],
    ['a requeue naming no run', JSON.stringify({ v: 1, key, dueAt: NOW, awaits: '' }), false],
    ['a requeue naming a run by a number', JSON.stringify({ v: 1, key, dueAt: NOW, awaits: 7 }), false],
  ])('%s → valid: %s', (_title, body, valid) => {
    expect(parseWorkMessage(body) !== undefined).toBe(valid);
  });
});
