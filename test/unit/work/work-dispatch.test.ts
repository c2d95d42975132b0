import { describe, expect, it } from 'vitest';
import { RESYNC_KEYS_PER_MESSAGE, parseKindKey, parseSharedQueueMessage } from '../../../shared/contracts/work-dispatch.js';

const key = { group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: 'm' };
const cloudEvent = { source: 'aws.ec2', detailType: 'x', region: 'us-east-1', detail: {} };

describe('Function: parseSharedQueueMessage', () => {
  it.each<[string, unknown, string | undefined]>([
    ['a work message', { v: 1, key }, 'work'],
    ['a delayed work message', { v: 1, key, dueAt: 5, failures: 1 }, 'work'],
    ['a cluster resync', { v: 1, resync: { scope: 'default/dev', keys: [key] } }, 'resync'],
    ['a cloud event naming its kind', { v: 1, kind: 'infrastructure.cluster.x-k8s.io/AWSMachine', cloudEvent }, 'cloudEvent'],
    ["Lambda's on-failure record of a reconciler invocation", { version: '1.0', requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 1 }, requestPayload: { v: 1, kind: 'cluster.x-k8s.io/Machine', messages: [{ v: 1, key }], cloudEvents: [] } }, 'invocationFailed'],
    ['a cloud event naming no kind', { v: 1, cloudEvent }, undefined],
    ['a cloud event naming a kind without a slash', { v: 1, kind: 'AWSMachine', cloudEvent }, undefined],
    ['an empty resync', { v: 1, resync: { scope: 'default/dev', keys: [] } }, undefined],
    ['a resync over its size', { v: 1, resync: { scope: 'default/dev', keys: Array.from({ length: RESYNC_KEYS_PER_MESSAGE + 1 }, () => key) } }, undefined],
    ['an on-failure record of something else', { requestContext: { condition: 'RetriesExhausted' }, requestPayload: { Records: [] } }, undefined],
    ['a work message of another version', { v: 2, key }, undefined],
    ['not JSON', '{', undefined],
  ])('%s', (_case, body, type) => {
    expect(parseSharedQueueMessage(typeof body === 'string' ? body : JSON.stringify(body))?.type).toBe(type);
  });
});

describe('Function: parseKindKey', () => {
  it.each([
    ['cluster.x-k8s.io/Machine', { group: 'cluster.x-k8s.io', kind: 'Machine' }],
    ['/Secret', { group: '', kind: 'Secret' }],
    ['Machine', undefined],
    ['cluster.x-k8s.io/', undefined],
  ])('%s', (text, expected) => {
    expect(parseKindKey(text)).toEqual(expected);
  });
});
