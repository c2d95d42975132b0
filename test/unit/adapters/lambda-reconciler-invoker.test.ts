import { LambdaClient } from '@aws-sdk/client-lambda';
import { describe, expect, it } from 'vitest';
import { LambdaReconcilerInvoker, parseReconcilerFunctions } from '../../../shared/adapters/aws/lambda/lambda-reconciler-invoker.js';
import type { ReconcilerInvocation } from '../../../shared/contracts/work-dispatch.js';

const KIND = 'cluster.x-k8s.io/Machine';
const payload: ReconcilerInvocation = { v: 1, kind: KIND, messages: [{ v: 1, key: { group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: 'm' } }], cloudEvents: [] };

function lambda(answer: { StatusCode?: number; FunctionError?: string }, calls: unknown[]): LambdaClient {
  const client = new LambdaClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  client.send = async (command: { input?: unknown }) => {
    calls.push(command.input);
    return answer;
  };
  return client;
}

describe('Class: LambdaReconcilerInvoker', () => {
  it("invokes the kind's function asynchronously (InvocationType Event) with the invocation as its payload", async () => {
    const calls: unknown[] = [];
    await new LambdaReconcilerInvoker(lambda({ StatusCode: 202 }, calls), { [KIND]: 'capless-reconcile-machine' }).invoke(payload);
    expect(calls).toEqual([{ FunctionName: 'capless-reconcile-machine', InvocationType: 'Event', Payload: new TextEncoder().encode(JSON.stringify(payload)) }]);
  });

  it.each<[string, { StatusCode?: number; FunctionError?: string }, Record<string, string>, RegExp]>([
    ['a kind without a function', { StatusCode: 202 }, {}, /RECONCILER_FUNCTIONS has no "cluster.x-k8s.io\/Machine"/],
    ['an answer other than 202 Accepted', { StatusCode: 200, FunctionError: 'Unhandled' }, { [KIND]: 'f' }, /did not accept .*status 200, Unhandled/],
  ])('throws for %s, so the dispatcher leaves the message on the queue', async (_case, answer, functions, error) => {
    await expect(new LambdaReconcilerInvoker(lambda(answer, []), functions).invoke(payload)).rejects.toThrow(error);
  });
});

describe('Function: parseReconcilerFunctions', () => {
  it.each<[string, string | undefined, Record<string, string> | RegExp]>([
    ['a map of names', JSON.stringify({ [KIND]: 'arn:aws:lambda:us-east-1:1:function:f' }), { [KIND]: 'arn:aws:lambda:us-east-1:1:function:f' }],
    ['nothing', undefined, /is not set/],
    ['a list', '["f"]', /must be a JSON object/],
    ['an empty name', JSON.stringify({ [KIND]: '' }), /must be a function name or ARN/],
  ])('%s', (_case, json, expected) => {
    if (expected instanceof RegExp) expect(() => parseReconcilerFunctions(json)).toThrow(expected);
    else expect(parseReconcilerFunctions(json)).toEqual(expected);
  });
});
