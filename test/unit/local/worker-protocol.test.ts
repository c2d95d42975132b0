import { describe, expect, it } from 'vitest';
import { fromWorkerSchema } from '../../../local/workers/protocol.js';
import type { RequestOutcome } from '../../../shared/work/request-outcome.js';

/** A reconcile's outcome crosses from a worker thread to the queue with what the queue decides on (ADR 0115, 0137, 0149). */
describe('a worker outcome message', () => {
  it.each<[string, RequestOutcome]>([
    ['done, with what it read', { type: 'done', read: new Map([['uid-1', '3']]) }],
    ['done, its object gone', { type: 'done', read: new Map(), gone: true }],
    ['a requeue, its object gone', { type: 'requeue', afterSeconds: 30, read: new Map(), gone: true }],
    ['a retry', { type: 'retry', afterSeconds: 2, error: 'boom' }],
  ])('keeps %s', (_title, outcome) => {
    expect(fromWorkerSchema.parse({ type: 'outcome', id: 1, outcome })).toEqual({ type: 'outcome', id: 1, outcome });
  });

  it('refuses a gone that is not true', () => {
    expect(() => fromWorkerSchema.parse({ type: 'outcome', id: 1, outcome: { type: 'done', gone: 'yes' } })).toThrow();
  });
});
