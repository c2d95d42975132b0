import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { deepEqual, valueAt } from '../../../shared/contracts/json.js';
import type { StoredObject } from '../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../shared/ports/object-store.js';
import type { IgnoredValues, Watch } from '../engine/skeleton/types.js';
import { conditionOfPath, EVERY_CONDITION, valueTestOfPath } from '../engine/skeleton/watch-fields.js';

/**
 * A watch with `on` passes only those change types; one with `changes` passes a MODIFY only when
 * one of its field paths differs; a condition path (`conditionPath`) compares that condition's
 * status, or whether it has the reason the path names; `EVERY_CONDITION_STATUS` compares the
 * status of every condition; a value path (`valueIsPath`) compares whether the field has that value.
 * A watch with `ignore` passes no change whose every version holds an ignored value.
 * A watch with `marks` passes a MODIFY of an object its watcher has not marked as evaluated only
 * when one of the mark's `unmarkedChanges` differs, and one that moves the mark always (ADR 0145).
 */
export function watchedFieldsChanged(watch: Watch, change: ObjectChange): boolean {
  if (watch.on && !watch.on.includes(change.type)) return false;
  if (watch.ignore && isIgnored(watch.ignore, change)) return false;
  if (change.type !== 'MODIFY') return true;
  if (watch.marks) {
    const mark = { type: watch.marks.condition };
    const before = conditionGist(change.oldObject, mark);
    const after = conditionGist(change.newObject, mark);
    // Not marked in either version: only what could make the object matter passes.
    if (before === undefined && after === undefined) return anyChanged(watch.marks.unmarkedChanges, change);
    // The mark appearing or changing status is the watcher's own marking write: it must wake the
    // watcher for whatever changed after it read the object, whatever `changes` lists.
    if (before !== after) return true;
  }
  return !watch.changes || anyChanged(watch.changes, change);
}

function anyChanged(paths: readonly string[], change: ObjectChange): boolean {
  return paths.some((path) => fieldChanged(path, change.oldObject, change.newObject));
}

function fieldChanged(path: string, before: StoredObject | undefined, after: StoredObject | undefined): boolean {
  const condition = conditionOfPath(path);
  if (condition) return conditionGist(before, condition) !== conditionGist(after, condition);
  const test = valueTestOfPath(path);
  if (test) return hasValue(before, test) !== hasValue(after, test);
  const segments = path.split('.');
  return !deepEqual(valueAt(before, ...segments), valueAt(after, ...segments));
}

/** Whether the field holds the value: a string, number or boolean written as that text (`replicas=3` is the number 3). */
function hasValue(object: StoredObject | undefined, test: { segments: string[]; value: string }): boolean {
  const value = valueAt(object, ...test.segments);
  return (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && String(value) === test.value;
}

/** What a condition path compares: the condition's status, whether it has the named reason, or every condition's status. */
function conditionGist(object: StoredObject | undefined, path: { type: string; reason?: string }): string | boolean | undefined {
  if (path.type === EVERY_CONDITION) {
    return conditionsOf(object?.status)
      .map((c) => `${c.type}=${c.status}`)
      .sort()
      .join(',');
  }
  const condition = findCondition(conditionsOf(object?.status), path.type);
  return path.reason === undefined ? condition?.status : condition?.reason === path.reason;
}

function isIgnored(ignore: IgnoredValues, change: ObjectChange): boolean {
  const segments = ignore.path.split('.');
  const versions = [change.oldObject, change.newObject].filter((o): o is StoredObject => o !== undefined);
  return versions.every((o) => {
    const value = valueAt(o, ...segments);
    return typeof value === 'string' && ignore.values.includes(value);
  });
}
