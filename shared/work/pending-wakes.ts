import type { ObjectVersion } from '../ports/work-queue.js';
import { hasRead, type ReadVersions } from './read-versions.js';

/**
 * What asked for one object's pending run while its reconcile was in flight: the versions the
 * changes that marked it made, and whether any enqueue came without a cause (a removal's, a
 * resync's, a reconciler's own).
 */
export class PendingWakes {
  private readonly causes: ObjectVersion[] = [];
  private uncaused = false;

  constructor(cause?: ObjectVersion) {
    this.add(cause);
  }

  add(cause?: ObjectVersion): void {
    if (cause) this.causes.push(cause);
    else this.uncaused = true;
  }

  /**
   * Whether the run that just finished answered every wake, so the rerun can be dropped: each
   * change made a version the run read, as it would read the same and decide the same (ADR
   * 0137); and a wake without a cause counts only when the run ended with its object gone, as
   * the rerun would find nothing either. An object made again under the same key meanwhile is a
   * change with a cause the run cannot have read (its new uid), so it is never answered (ADR 0149).
   */
  answeredBy(read: ReadVersions, gone: boolean): boolean {
    return (!this.uncaused || gone) && this.causes.every((cause) => hasRead(read, cause));
  }
}
