import { describe, expect, it } from 'vitest';
import type { ObjectVersion } from '../../../shared/ports/work-queue.js';
import { PendingWakes } from '../../../shared/work/pending-wakes.js';

const READ: ObjectVersion = { uid: 'a', resourceVersion: '5' };
const OLDER: ObjectVersion = { uid: 'a', resourceVersion: '4' };
const NEWER: ObjectVersion = { uid: 'a', resourceVersion: '6' };
const OTHER: ObjectVersion = { uid: 'b', resourceVersion: '1' };

/** When a finished run answers the wakes of its object's pending rerun (ADR 0137, 0149). */
describe('PendingWakes.answeredBy', () => {
  it.each<[string, (ObjectVersion | undefined)[], boolean, boolean]>([
    ['changes to versions the run read or passed', [READ, OLDER], false, true],
    ['a change to a version after the one read', [READ, NEWER], false, false],
    ['a change to an object the run did not read', [OTHER], false, false],
    ['a wake without a cause, the object still there', [READ, undefined], false, false],
    ['a wake without a cause, the object gone', [undefined, READ], true, true],
    ['the object gone, but a change the run did not read', [undefined, OTHER], true, false],
  ])('%s', (_title, wakes, gone, answered) => {
    const [first, ...rest] = wakes;
    const pending = new PendingWakes(first);
    for (const cause of rest) pending.add(cause);
    expect(pending.answeredBy(new Map([[READ.uid, READ.resourceVersion]]), gone)).toBe(answered);
  });
});
