import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { type DispatchDeps, dispatchSqsBatch, MESSAGES_PER_INVOCATION } from '../../../../functions/reconcile/dispatch/dispatch-batch.js';
import { keyString, type ObjectKey } from '../../../../shared/contracts/object.js';
import type { ReconcilerInvocation } from '../../../../shared/contracts/work-dispatch.js';
import type { WorkMessage } from '../../../../shared/contracts/work-message.js';
import { FakeClock } from '../../../support/fake-clock.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const MACHINE = 'cluster.x-k8s.io/Machine';
const CLUSTER = 'cluster.x-k8s.io/Cluster';
const AWS_MACHINE = 'infrastructure.cluster.x-k8s.io/AWSMachine';

function key(kind: string, name: string): ObjectKey {
  const slash = kind.lastIndexOf('/');
  return { group: kind.slice(0, slash), kind: kind.slice(slash + 1), namespace: 'default', name };
}

function record(id: string, body: unknown): SQSRecord {
  return {
    messageId: id,
    receiptHandle: `rh-${id}`,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:work',
    awsRegion: 'us-east-1',
  };
}

const cloudEvent = { source: 'aws.ec2', detailType: 'EC2 Instance State-change Notification', region: 'us-east-1', detail: { 'instance-id': 'i-1', state: 'running' } };

function failureRecord(condition: string, messages: WorkMessage[]) {
  return { version: '1.0', requestContext: { condition, approximateInvokeCount: 1 }, requestPayload: { v: 1, kind: MACHINE, messages, cloudEvents: [] } };
}

interface Sent {
  again: { key: string; failures: number; delaySeconds: number; immediate: boolean; isolate: boolean }[];
  delayed: { key: string; dueAt: number; failures: number | undefined; isolate: boolean; awaits?: string }[];
  dead: { key: string; failures: number }[];
}

function harness(options: { refuse?: string } = {}) {
  const invocations: ReconcilerInvocation[] = [];
  const sent: Sent = { again: [], delayed: [], dead: [] };
  const deps: DispatchDeps = {
    invoker: {
      invoke: async (invocation) => {
        if (invocation.kind === options.refuse) throw new Error('Rate exceeded');
        invocations.push(invocation);
      },
    },
    queue: {
      sendDelayed: async (k, dueAt, failures, options) =>
        void sent.delayed.push({ key: keyString(k), dueAt, failures, isolate: options?.isolate === true, ...(options?.awaits ? { awaits: options.awaits } : {}) }),
      sendAgain: async (m, failures, delaySeconds, options) =>
        void sent.again.push({ key: keyString(m.key), failures, delaySeconds, immediate: m.dueAt === undefined, isolate: options?.isolate === true }),
      sendToDeadLetter: async (k, failures) => {
        sent.dead.push({ key: keyString(k), failures });
        return true;
      },
    },
    kinds: new Set([MACHINE, CLUSTER, AWS_MACHINE]),
    maxAttempts: 5,
    leaseSeconds: 120,
    clock: new FakeClock(new Date(NOW)),
  };
  return { deps, invocations, sent };
}

const summary = (invocations: ReconcilerInvocation[]) =>
  invocations.map((i) => ({ kind: i.kind, keys: i.messages.map((m) => m.key.name), events: i.cloudEvents.length })).sort((a, b) => a.kind.localeCompare(b.kind));

describe('Function: dispatchSqsBatch', () => {
  it.each<[string, unknown[], { kind: string; keys: string[]; events: number }[]]>([
    ['work messages, one invocation per kind', [{ v: 1, key: key(MACHINE, 'm1') }, { v: 1, key: key(MACHINE, 'm2') }, { v: 1, key: key(CLUSTER, 'c') }], [
      { kind: CLUSTER, keys: ['c'], events: 0 },
      { kind: MACHINE, keys: ['m1', 'm2'], events: 0 },
    ]],
    ['a due delayed message', [{ v: 1, key: key(MACHINE, 'm1'), dueAt: NOW - 1, failures: 2 }], [{ kind: MACHINE, keys: ['m1'], events: 0 }]],
    ['a cluster resync, fanned out per kind', [{ v: 1, resync: { scope: 'default/dev', keys: [key(CLUSTER, 'dev'), key(MACHINE, 'm1'), key(MACHINE, 'm2')] } }], [
      { kind: CLUSTER, keys: ['dev'], events: 0 },
      { kind: MACHINE, keys: ['m1', 'm2'], events: 0 },
    ]],
    ['a cloud event for the kind its rule names', [{ v: 1, kind: AWS_MACHINE, cloudEvent }], [{ kind: AWS_MACHINE, keys: [], events: 1 }]],
    ['a delayed message not yet due (it hops on, nothing is invoked)', [{ v: 1, key: key(MACHINE, 'm1'), dueAt: NOW + 3_600_000 }], []],
  ])('%s', async (_case, bodies, expected) => {
    const h = harness();
    const event: SQSEvent = { Records: bodies.map((body, i) => record(String(i), body)) };
    const response = await dispatchSqsBatch(event, h.deps);
    expect(response.batchItemFailures).toEqual([]);
    expect(summary(h.invocations)).toEqual(expected);
  });

  it('invokes resync keys as requests due now: they take the work record without an enqueue', async () => {
    const h = harness();
    await dispatchSqsBatch({ Records: [record('r', { v: 1, resync: { scope: 'default/dev', keys: [key(MACHINE, 'm1')] } })] }, h.deps);
    expect(h.invocations[0]?.messages).toEqual([{ v: 1, key: key(MACHINE, 'm1'), dueAt: NOW }]);
  });

  it('sends a delayed message not yet due on for its next hop with its failure count', async () => {
    const h = harness();
    await dispatchSqsBatch({ Records: [record('d', { v: 1, key: key(MACHINE, 'm1'), dueAt: NOW + 3_600_000, failures: 2 })] }, h.deps);
    expect(h.sent.delayed).toEqual([{ key: keyString(key(MACHINE, 'm1')), dueAt: NOW + 3_600_000, failures: 2, isolate: false }]);
  });

  it(`splits a kind's work into invocations of at most ${MESSAGES_PER_INVOCATION} messages`, async () => {
    const h = harness();
    const keys = Array.from({ length: MESSAGES_PER_INVOCATION + 1 }, (_, i) => key(MACHINE, `m${i}`));
    await dispatchSqsBatch({ Records: [record('r', { v: 1, resync: { scope: 'default/big', keys: keys.slice(0, 200) } })] }, h.deps);
    expect(h.invocations.map((i) => i.messages.length)).toEqual([MESSAGES_PER_INVOCATION, 1]);
  });

  it.each([
    ['an unreadable body', 'not json'],
    ['a work message of a kind without a reconciler function', { v: 1, key: { group: 'example.com', kind: 'Gadget', namespace: 'default', name: 'g' } }],
    ['a cloud event for a kind without a reconciler function', { v: 1, kind: 'example.com/Gadget', cloudEvent }],
    ['a cloud event that names no kind (a rule of a kind queue)', { v: 1, cloudEvent }],
  ])('leaves %s on the queue and invokes nothing', async (_case, body) => {
    const h = harness();
    const response = await dispatchSqsBatch({ Records: [record('bad', body), record('good', { v: 1, key: key(MACHINE, 'm1') })] }, h.deps);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
    expect(summary(h.invocations)).toEqual([{ kind: MACHINE, keys: ['m1'], events: 0 }]);
  });

  it('leaves every record of a kind whose invocation Lambda did not accept on the queue, and only those', async () => {
    const h = harness({ refuse: CLUSTER });
    const response = await dispatchSqsBatch(
      {
        Records: [
          record('c', { v: 1, key: key(CLUSTER, 'c') }),
          record('m', { v: 1, key: key(MACHINE, 'm1') }),
          record('r', { v: 1, resync: { scope: 'default/dev', keys: [key(CLUSTER, 'dev'), key(MACHINE, 'm2')] } }),
        ],
      },
      h.deps,
    );
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'c' }, { itemIdentifier: 'r' }]);
    expect(summary(h.invocations)).toEqual([{ kind: MACHINE, keys: ['m1', 'm2'], events: 0 }]);
  });

  const m1 = keyString(key(MACHINE, 'm1'));
  const m2 = keyString(key(MACHINE, 'm2'));

  it.each<[string, string, WorkMessage[], Partial<Sent>]>([
    ['a crashed invocation of one immediate request: again after the lease, alone, as an immediate one, one failure more', 'RetriesExhausted', [{ v: 1, key: key(MACHINE, 'm1') }], {
      again: [{ key: m1, failures: 1, delaySeconds: 120, immediate: true, isolate: true }],
    }],
    ['a crashed invocation of one delayed request', 'RetriesExhausted', [{ v: 1, key: key(MACHINE, 'm1'), dueAt: NOW - 5, failures: 2 }], {
      again: [{ key: m1, failures: 3, delaySeconds: 120, immediate: false, isolate: true }],
    }],
    ['a crashed invocation of several requests: each again alone, no failure counted (which one crashed it is not known)', 'RetriesExhausted', [{ v: 1, key: key(MACHINE, 'm1'), failures: 4 }, { v: 1, key: key(MACHINE, 'm2') }], {
      again: [
        { key: m1, failures: 4, delaySeconds: 120, immediate: true, isolate: true },
        { key: m2, failures: 0, delaySeconds: 120, immediate: true, isolate: true },
      ],
    }],
    ['a request that crashed its reconciler alone for the last allowed time: dead-lettered', 'RetriesExhausted', [{ v: 1, key: key(MACHINE, 'm1'), failures: 4, isolate: true }], {
      dead: [{ key: m1, failures: 5 }],
    }],
    ['requests throttled past their maximum age: again at once, as they were, no failure counted', 'EventAgeExceeded', [{ v: 1, key: key(MACHINE, 'm1'), failures: 4 }, { v: 1, key: key(MACHINE, 'm2') }], {
      again: [
        { key: m1, failures: 4, delaySeconds: 0, immediate: true, isolate: false },
        { key: m2, failures: 0, delaySeconds: 0, immediate: true, isolate: false },
      ],
    }],
  ])('an invocation Lambda gave up on: %s', async (_case, condition, messages, expected) => {
    const h = harness();
    const response = await dispatchSqsBatch({ Records: [record('f', failureRecord(condition, messages))] }, h.deps);
    expect(response.batchItemFailures).toEqual([]);
    expect(h.invocations).toEqual([]);
    expect(h.sent).toEqual({ again: [], delayed: [], dead: [], ...expected });
  });

  it('invokes requests marked to be isolated one per invocation, the others together', async () => {
    const h = harness();
    await dispatchSqsBatch(
      {
        Records: [
          record('a', { v: 1, key: key(MACHINE, 'a'), isolate: true }),
          record('b', { v: 1, key: key(MACHINE, 'b'), isolate: true }),
          record('c', { v: 1, key: key(MACHINE, 'c') }),
          record('d', { v: 1, key: key(MACHINE, 'd') }),
        ],
      },
      h.deps,
    );
    expect(h.invocations.map((i) => i.messages.map((m) => m.key.name))).toEqual([['c', 'd'], ['a'], ['b']]);
  });

  it('keeps the run a requeue awaits across its hops (docs/adr/0144)', async () => {
    const h = harness();
    await dispatchSqsBatch({ Records: [record('d', { v: 1, key: key(MACHINE, 'm1'), dueAt: NOW + 3_600_000, awaits: 'run-1' })] }, h.deps);
    expect(h.sent.delayed).toEqual([{ key: m1, dueAt: NOW + 3_600_000, failures: undefined, isolate: false, awaits: 'run-1' }]);
  });

  it('keeps a delayed request isolated across its hops', async () => {
    const h = harness();
    await dispatchSqsBatch({ Records: [record('d', { v: 1, key: key(MACHINE, 'm1'), dueAt: NOW + 3_600_000, isolate: true })] }, h.deps);
    expect(h.sent.delayed).toEqual([{ key: m1, dueAt: NOW + 3_600_000, failures: undefined, isolate: true }]);
  });
});
