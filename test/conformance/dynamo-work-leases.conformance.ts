import { type DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { createObjectTable } from '../../shared/adapters/aws/dynamodb/create-object-table.js';
import { DEFAULT_QUEUED_MARKER_TTL_MS, DynamoWorkLeases } from '../../shared/adapters/aws/work-leases/dynamo-work-leases.js';
import { widgetKey } from '../support/probe-reconciler.js';

const key = widgetKey('a');
const T0 = 1_000_000;
const LEASE = 60_000;
const lease = (token: string, nowMs = T0, holdsQueuedMarker = true) => ({ token, nowMs, leaseMs: LEASE, holdsQueuedMarker });
let tables = 0;

/**
 * DynamoWorkLeases' protocol (docs/adr/0002, 0144) on one DynamoDB engine: every step is a
 * conditional single-item write, so each engine that serves the stack or its tests runs it.
 */
export function describeDynamoWorkLeases(name: string, client: () => DynamoDBClient): void {
  describe(`Class: DynamoWorkLeases (on ${name})`, () => {
    let leases: DynamoWorkLeases;
    let tableName = '';

    beforeEach(async () => {
      tableName = `work-${Date.now()}-${++tables}`;
      await createObjectTable(client(), tableName);
      leases = new DynamoWorkLeases(client(), tableName);
    });

    async function record() {
      const read = await client().send(
        new GetItemCommand({ TableName: tableName, Key: { pk: { S: 'work#test.capless.io/Widget/default/a' }, sk: { S: 'work' } } }),
      );
      return read.Item;
    }

    it('sends once for a burst of enqueues while a message is pending', async () => {
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await leases.markQueued(key, T0));
      expect(results).toEqual(['send', 'coalesced', 'coalesced', 'coalesced', 'coalesced']);
    });

    it('marks a running object dirty instead of sending, and owes one rerun at release', async () => {
      await leases.markQueued(key, T0);
      expect(await leases.acquire(key, lease('m1'))).toBe(true);
      expect(await leases.markQueued(key, T0 + 1)).toBe('coalesced');
      expect(await leases.markQueued(key, T0 + 2)).toBe('coalesced');
      expect(await leases.release(key, 'm1', 'answered')).toEqual({ rerun: true });
      expect(await leases.markQueued(key, T0 + 3)).toBe('send');
    });

    it('deletes the record when a run ends with nothing owed', async () => {
      await leases.markQueued(key, T0);
      await leases.acquire(key, lease('m1'));
      expect(await leases.release(key, 'm1', 'answered')).toEqual({ rerun: false });
      expect(await record()).toBeUndefined();
    });

    it('refuses a second run while one holds the lease, and marks the holder dirty', async () => {
      await leases.acquire(key, lease('m1'));
      expect(await leases.acquire(key, lease('m2', T0 + 10))).toBe(false);
      expect(await leases.release(key, 'm1', 'answered')).toEqual({ rerun: true });
    });

    it('lets a redelivered message take over an expired lease; the old holder then releases nothing', async () => {
      await leases.acquire(key, lease('m1'));
      expect(await leases.acquire(key, lease('m1-again', T0 + LEASE + 1))).toBe(true);
      expect(await leases.release(key, 'm1', 'answered')).toEqual({ rerun: false });
      expect(await leases.release(key, 'm1-again', 'answered')).toEqual({ rerun: false });
      expect(await record()).toBeUndefined();
    });

    it('a due delayed message steps aside for a pending one, but runs when none is pending', async () => {
      await leases.markQueued(key, T0);
      expect(await leases.acquire(key, lease('delayed', T0, false))).toBe(false);
      expect(await leases.acquire(key, lease('queued', T0, true))).toBe(true);
      await leases.release(key, 'queued', 'answered');
      expect(await leases.acquire(key, lease('delayed-2', T0, false))).toBe(true);
    });

    describe('the requeue a run asked for (docs/adr/0144)', () => {
      const awaiting = (token: string, awaits: string, nowMs = T0) => ({ ...lease(token, nowMs, false), awaits });

      it('keeps the record owing the requeue, which its message then takes; released answered, the record goes', async () => {
        await leases.acquire(key, lease('m1'));
        expect(await leases.release(key, 'm1', 'requeued')).toEqual({ rerun: false });
        expect((await record())?.awaits).toEqual({ S: 'm1' });
        expect(await leases.acquire(key, awaiting('d1', 'm1', T0 + 10))).toBe(true);
        expect(await leases.release(key, 'd1', 'answered')).toEqual({ rerun: false });
        expect(await record()).toBeUndefined();
      });

      it.each([
        ['a later run asked for its own', 'requeued', { S: 'm2' }],
        ['a later run answered it', 'answered', undefined],
      ] as const)('drops the message of a requeue %s, marking nothing dirty', async (_name, settlement, left) => {
        await leases.acquire(key, lease('m1'));
        await leases.release(key, 'm1', 'requeued');
        await leases.acquire(key, lease('m2', T0 + 5));
        await leases.release(key, 'm2', settlement);
        expect(await leases.acquire(key, awaiting('d1', 'm1', T0 + 10))).toBe(false);
        expect((await record())?.awaits).toEqual(left);
        expect((await record())?.dirty).not.toEqual({ BOOL: true });
      });

      it('a failed run answers nothing: the requeue owed before it still runs', async () => {
        await leases.acquire(key, lease('m1'));
        await leases.release(key, 'm1', 'requeued');
        await leases.acquire(key, lease('m2', T0 + 5));
        expect(await leases.release(key, 'm2', 'failed')).toEqual({ rerun: false });
        expect(await leases.acquire(key, awaiting('d1', 'm1', T0 + 10))).toBe(true);
      });

      it('a failed run with nothing owed leaves no record', async () => {
        await leases.acquire(key, lease('m1'));
        expect(await leases.release(key, 'm1', 'failed')).toEqual({ rerun: false });
        expect(await record()).toBeUndefined();
      });

      it('a requeue message arriving while another run holds the lease marks it dirty, as any delayed one', async () => {
        await leases.acquire(key, lease('m1'));
        await leases.release(key, 'm1', 'requeued');
        await leases.markQueued(key, T0 + 5);
        await leases.acquire(key, lease('q', T0 + 6));
        expect(await leases.acquire(key, awaiting('d1', 'm1', T0 + 10))).toBe(false);
        expect(await leases.release(key, 'q', 'requeued')).toEqual({ rerun: true });
        expect((await record())?.awaits).toEqual({ S: 'q' });
      });

      it('a requeue message with no record left (a later run answered it and went) is dropped', async () => {
        expect(await leases.acquire(key, awaiting('d1', 'gone'))).toBe(false);
        expect(await record()).toBeUndefined();
      });

      it('a delayed message awaiting nothing (a retry, a resync, a delayed enqueue) runs as before', async () => {
        await leases.acquire(key, lease('m1'));
        await leases.release(key, 'm1', 'requeued');
        expect(await leases.acquire(key, lease('retry', T0 + 10, false))).toBe(true);
      });
    });

    describe('a queued marker whose message was lost (crash before SendMessage, expiry, unseen dead letter)', () => {
      const TTL = DEFAULT_QUEUED_MARKER_TTL_MS;

      it.each([
        ['within the TTL it still coalesces', T0 + TTL - 1, 'coalesced'],
        ['past the TTL the next enqueue sends again', T0 + TTL + 1, 'send'],
      ] as const)('%s', async (_name, later, expected) => {
        expect(await leases.markQueued(key, T0)).toBe('send');
        // The message markQueued stood for never arrives.
        expect(await leases.markQueued(key, later)).toBe(expected);
      });

      it('a delayed message no longer steps aside for a stale marker', async () => {
        await leases.markQueued(key, T0);
        expect(await leases.acquire(key, lease('delayed', T0 + TTL - 1, false))).toBe(false);
        expect(await leases.acquire(key, lease('delayed-late', T0 + TTL + 1, false))).toBe(true);
        expect(await leases.release(key, 'delayed-late', 'answered')).toEqual({ rerun: false });
        expect(await record()).toBeUndefined();
      });

      it('the original message arriving late after a re-send runs once more, never beside the other run', async () => {
        await leases.markQueued(key, T0);
        expect(await leases.markQueued(key, T0 + TTL + 1)).toBe('send');
        expect(await leases.acquire(key, lease('resent', T0 + TTL + 2))).toBe(true);
        expect(await leases.acquire(key, lease('original', T0 + TTL + 3))).toBe(false);
        expect(await leases.release(key, 'resent', 'answered')).toEqual({ rerun: true });
      });

      it('a TTL given by the caller is used', async () => {
        const short = new DynamoWorkLeases(client(), tableName, 1_000);
        await short.markQueued(key, T0);
        expect(await short.markQueued(key, T0 + 500)).toBe('coalesced');
        expect(await short.markQueued(key, T0 + 1_001)).toBe('send');
      });
    });
  });
}
