import type { KubeObject } from '../contracts/object.js';

/** Past this many remembered versions the memo starts over (a bound, not a tuning knob). */
const DEFAULT_MAX_REMEMBERED = 200_000;

/**
 * The serialized size of stored objects, remembered per uid for the version last measured. A
 * stored version never changes (a write makes a new resourceVersion), so an object seen many
 * times is serialized once per version: the benchmark's unit estimate does not cost the event
 * loop it measures a JSON.stringify of every item of every read, and the watch change log sizes a
 * modification's previous version from when it was the new one. Objects without a uid or a
 * resourceVersion (a write's input) are measured each time.
 */
export class ObjectSizes {
  private readonly byUid = new Map<string, { resourceVersion: string; bytes: number }>();

  constructor(private readonly maxRemembered = DEFAULT_MAX_REMEMBERED) {}

  bytesOf(obj: KubeObject): number {
    const { uid, resourceVersion } = obj.metadata;
    if (uid === undefined || resourceVersion === undefined) return JSON.stringify(obj).length;
    const known = this.byUid.get(uid);
    if (known?.resourceVersion === resourceVersion) return known.bytes;
    const bytes = JSON.stringify(obj).length;
    if (this.byUid.size >= this.maxRemembered) this.byUid.clear();
    this.byUid.set(uid, { resourceVersion, bytes });
    return bytes;
  }

  /** Versions remembered now (for tests). */
  get size(): number {
    return this.byUid.size;
  }
}
