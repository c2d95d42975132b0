/**
 * A control-plane Machine is created in three writes: its InfraMachine, its KubeadmConfig, then
 * the Machine (so a Machine never names a missing part). A run that dies between them leaves
 * parts no Machine names, still controlled by the KubeadmControlPlane. The next creation picks
 * them up: parts that are what it would build under their name (the same template, the same
 * init or join configuration) are that creation interrupted, and it finishes under that name;
 * any other such part is stale and deleted. The KubeadmControlPlane is the only writer of its
 * parts and runs once at a time (ADR 0002), so a part it controls that none of its Machines
 * names cannot be one another run is about to use.
 */

import { deepEqual, isRecord, stringAt } from '../../../../shared/contracts/json.js';
import { type KubeObject, type StoredObject, isControlledBy } from '../../../../shared/contracts/object.js';

/** Kinds that are whole objects of their own, never a Machine's part. */
const NOT_PARTS = new Set(['Machine', 'Secret', 'ConfigMap']);

const partRef = (kind: string | undefined, name: string | undefined) => `${kind ?? ''}/${name ?? ''}`;

/** Pure: the objects `owned` (what lists the KCP as an owner) that are parts none of its Machines (also in `owned`) names. */
export function orphanedParts(kcpUid: string, owned: readonly StoredObject[]): StoredObject[] {
  const named = new Set(
    owned.filter((o) => o.kind === 'Machine').flatMap((m) => [
      partRef(stringAt(m, 'spec', 'infrastructureRef', 'kind'), stringAt(m, 'spec', 'infrastructureRef', 'name')),
      partRef(stringAt(m, 'spec', 'bootstrap', 'configRef', 'kind'), stringAt(m, 'spec', 'bootstrap', 'configRef', 'name')),
    ]),
  );
  return owned.filter((o) => !NOT_PARTS.has(o.kind) && isControlledBy(o, kcpUid) && !named.has(partRef(o.kind, o.metadata.name)));
}

/** Every field `want` sets is the same in `have` (which may hold more). */
function holds(have: unknown, want: unknown): boolean {
  const wanted = isRecord(want) ? want : {};
  const held = isRecord(have) ? have : {};
  return Object.entries(wanted).every(([key, value]) => deepEqual(held[key], value));
}

/**
 * A stored part is the built one when every spec field and annotation the build sets is the same
 * (providers may add others, e.g. providerID); the annotations carry what it was cloned from.
 */
function isBuiltPart(stored: StoredObject, built: KubeObject): boolean {
  return (
    stored.kind === built.kind &&
    stored.apiVersion === built.apiVersion &&
    holds(stored.spec, built.spec) &&
    holds(stored.metadata.annotations, built.metadata.annotations)
  );
}

/**
 * Pure: the name under which an interrupted creation resumes (its orphaned parts all match what
 * `build(name)` would create now), or undefined; the first such name in name order.
 */
export function resumableName(orphans: readonly StoredObject[], build: (name: string) => readonly KubeObject[]): string | undefined {
  const names = [...new Set(orphans.map((o) => o.metadata.name))].sort();
  return names.find((name) => {
    const parts = build(name);
    return orphans
      .filter((o) => o.metadata.name === name)
      .every((orphan) => parts.some((built) => isBuiltPart(orphan, built)));
  });
}
