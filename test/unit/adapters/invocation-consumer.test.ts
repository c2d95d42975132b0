import { SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { processInvocation, TRIES_AT_ONCE } from '../../../shared/adapters/aws/lambda/invocation-consumer.js';
import { SqsWorkQueue } from '../../../shared/adapters/aws/sqs/sqs-work-queue.js';
import type { ObjectKey } from '../../../shared/contracts/object.js';
import type { ReconcilerInvocation } from '../../../shared/contracts/work-dispatch.js';
import type { ReconcileRequest } from '../../../shared/ports/work-queue.js';
import type { Clock } from '../../../shared/ports/clock.js';
import type { RequestOutcome } from '../../../shared/work/request-outcome.js';
import type { WorkLeases } from '../../../shared/work/work-leases.js';

const MACHINE = { group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine' };
const machine = (name: string): ObjectKey => ({ ...MACHINE, namespace: 'default', name });

/** Leases that grant, except for the objects named in `broken`, whose acquire fails (DynamoDB down). */
function leases(broken: string[] = []): WorkLeases {
  return {
    markQueued: async () => 'send',
    acquire: async (key) => {
      if (broken.includes(key.name)) throw new Error('ProvisionedThroughputExceededException');
      return true;
    },
    release: async () => ({ rerun: false }),
  };
}

/** An SQS work queue on the shared queue whose client records what it sends (or refuses every send). */
function queue(sent: unknown[], refuseSends = false, clock?: Clock): SqsWorkQueue {
  const sqs = new SQSClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  sqs.send = async (command: { input?: unknown }) => {
    if (refuseSends) throw new Error('SQS unavailable');
    sent.push(command.input);
    return {};
  };
  return new SqsWorkQueue({ sqs, leases: leases(), sharedQueueUrl: 'https://sqs/work', ...(clock ? { clock } : {}) });
}

function invocation(kind: string, names: string[], cloudEvents: ReconcilerInvocation['cloudEvents'] = []): ReconcilerInvocation {
  return { v: 1, kind, messages: names.map((name) => ({ v: 1, key: machine(name) })), cloudEvents };
}

describe('Function: processInvocation (a reconciler invoked by the dispatcher)', () => {
  it('reconciles every message of its kind, each under its own lease token', async () => {
    const handled: ReconcileRequest[] = [];
    const tokens: string[] = [];
    const result = await processInvocation(invocation('infrastructure.cluster.x-k8s.io/InMemoryMachine', ['a', 'b']), 'req-1', {
      queue: queue([]),
      leases: { ...leases(), acquire: async (_key, lease) => void tokens.push(lease.token) === undefined },
      leaseSeconds: 30,
      kind: MACHINE,
      handler: async (request) => {
        handled.push(request);
        return { type: 'done' };
      },
    });
    expect(result).toEqual({ reconciled: 2, resent: 0, refused: 0 });
    expect(handled).toEqual([machine('a'), machine('b')]);
    expect(new Set(tokens).size).toBe(2);
  });

  it.each([
    ['an invocation naming another kind', invocation('infrastructure.cluster.x-k8s.io/InMemoryCluster', ['a'])],
    ['a message of another kind inside its own kind\'s invocation', { ...invocation('infrastructure.cluster.x-k8s.io/InMemoryMachine', []), messages: [{ v: 1 as const, key: { ...machine('a'), kind: 'InMemoryCluster' } }] }],
  ])('refuses %s: reconciles nothing and fails, so Lambda hands it to the on-failure destination', async (_case, payload) => {
    const handled: ReconcileRequest[] = [];
    const run = processInvocation(payload, 'req-2', {
      queue: queue([]),
      leases: leases(),
      leaseSeconds: 30,
      kind: MACHINE,
      handler: async (request) => {
        handled.push(request);
        return { type: 'done' };
      },
    });
    await expect(run).rejects.toThrow(/serves InMemoryMachine/);
    expect(handled).toEqual([]);
  });

  it.each([
    ['the work records fail: the try is sent again after the lease, with one failure more', false, { reconciled: 1, resent: 1, refused: 0 }],
    ['the work records and the queue fail: the invocation fails', true, undefined],
  ])('when %s', async (_case, refuseSends, expected) => {
    const sent: unknown[] = [];
    const run = processInvocation(invocation('infrastructure.cluster.x-k8s.io/InMemoryMachine', ['ok', 'broken']), 'req-3', {
      queue: queue(sent, refuseSends),
      leases: leases(['broken']),
      leaseSeconds: 120,
      kind: MACHINE,
      handler: async () => ({ type: 'done' }),
    });
    if (!expected) {
      await expect(run).rejects.toThrow(/could not be handed on/);
      return;
    }
    expect(await run).toEqual(expected);
    expect(sent).toEqual([{ QueueUrl: 'https://sqs/work', MessageBody: JSON.stringify({ v: 1, key: machine('broken'), failures: 1 }), DelaySeconds: 120 }]);
  });

  describe('a requeue (docs/adr/0144)', () => {
    const NOW = Date.UTC(2026, 0, 1);
    const clock: Clock = { now: () => new Date(NOW) };

    it("is sent awaiting the run's lease token before the release names it owed", async () => {
      const steps: string[] = [];
      const sent: unknown[] = [];
      const recording = queue(sent, false, clock);
      const send = recording.sendDelayed.bind(recording);
      recording.sendDelayed = async (...args) => {
        steps.push('send');
        await send(...args);
      };
      await processInvocation(invocation('infrastructure.cluster.x-k8s.io/InMemoryMachine', ['a']), 'req-5', {
        queue: recording,
        leases: {
          ...leases(),
          release: async (_key, token, settlement) => {
            steps.push(`release ${token} ${settlement}`);
            return { rerun: false };
          },
        },
        leaseSeconds: 30,
        kind: MACHINE,
        clock,
        handler: async () => ({ type: 'requeue', afterSeconds: 20 }),
      });
      expect(steps).toEqual(['send', 'release req-5:0 requeued']);
      expect(sent).toEqual([{ QueueUrl: 'https://sqs/work', MessageBody: JSON.stringify({ v: 1, key: machine('a'), dueAt: NOW + 20_000, awaits: 'req-5:0' }), DelaySeconds: 20 }]);
    });

    it.each<[string, RequestOutcome, string]>([
      ['a run that succeeds answers it', { type: 'done' }, 'answered'],
      ['a run that will be retried answers nothing', { type: 'retry', afterSeconds: 1, error: 'throttled' }, 'failed'],
      ['a run that failed for good answers nothing', { type: 'terminal', reason: 'Invalid', error: 'invalid' }, 'failed'],
    ])('%s', async (_case, outcome, settlement) => {
      const settled: string[] = [];
      await processInvocation(invocation('infrastructure.cluster.x-k8s.io/InMemoryMachine', ['a']), 'req-6', {
        queue: queue([]),
        leases: {
          ...leases(),
          release: async (_key, _token, how) => {
            settled.push(how);
            return { rerun: false };
          },
        },
        leaseSeconds: 30,
        kind: MACHINE,
        clock,
        handler: async () => outcome,
      });
      expect(settled).toEqual([settlement]);
    });

    it('whose try fails at the work records is sent again still awaiting the same run', async () => {
      const sent: unknown[] = [];
      const delayed = { v: 1 as const, key: machine('broken'), dueAt: NOW - 1, awaits: 'req-4:0' };
      await processInvocation({ v: 1, kind: 'infrastructure.cluster.x-k8s.io/InMemoryMachine', messages: [delayed], cloudEvents: [] }, 'req-7', {
        queue: queue(sent, false, clock),
        leases: leases(['broken']),
        leaseSeconds: 120,
        kind: MACHINE,
        clock,
        handler: async () => ({ type: 'done' }),
      });
      expect(sent).toEqual([
        { QueueUrl: 'https://sqs/work', MessageBody: JSON.stringify({ v: 1, key: machine('broken'), dueAt: NOW + 120_000, failures: 1, awaits: 'req-4:0' }), DelaySeconds: 120 },
      ]);
    });
  });

  it('maps its cloud events to the objects they concern and enqueues those on the shared queue', async () => {
    const sent: unknown[] = [];
    const event = { source: 'aws.ec2', detailType: 'EC2 Instance State-change Notification', region: 'us-east-1', detail: { 'instance-id': 'i-1' } };
    await processInvocation(invocation('infrastructure.cluster.x-k8s.io/InMemoryMachine', [], [event]), 'req-4', {
      queue: queue(sent),
      leases: leases(),
      leaseSeconds: 30,
      kind: MACHINE,
      handler: async () => ({ type: 'done' }),
      cloudEvents: async (received) => (received.detail['instance-id'] === 'i-1' ? [machine('m-i-1')] : []),
    });
    expect(sent).toEqual([{ QueueUrl: 'https://sqs/work', Entries: [{ Id: '0', MessageBody: JSON.stringify({ v: 1, key: machine('m-i-1') }) }] }]);
  });

  it(`runs at most ${TRIES_AT_ONCE} tries of one invocation at once, and every one of them`, async () => {
    let running = 0;
    let most = 0;
    const handled: string[] = [];
    const names = Array.from({ length: TRIES_AT_ONCE * 2 + 5 }, (_, i) => `m${i}`);
    await processInvocation(invocation('infrastructure.cluster.x-k8s.io/InMemoryMachine', names), 'req-5', {
      queue: queue([]),
      leases: leases(),
      leaseSeconds: 30,
      kind: MACHINE,
      handler: async (request) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        handled.push(request.name);
        running -= 1;
        return { type: 'done' };
      },
    });
    expect(most).toBe(TRIES_AT_ONCE);
    expect(handled.sort()).toEqual([...names].sort());
  });
});
