/**
 * A control-plane Machine is created in three writes: its InfraMachine, its KubeadmConfig, then
 * the Machine (so a Machine never names a missing part). A process that dies between them leaves
 * parts no Machine names, still controlled by the KubeadmControlPlane; the next plan creates a
 * whole new set under a new name, so those parts would stay until the KubeadmControlPlane goes.
 * Before it creates a Machine, the KubeadmControlPlane deletes them. It is the only writer of its
 * parts and runs once at a time (ADR 0002), so a part it controls that none of its Machines
 * names cannot be one that another run is about to use.
 */

import { stringAt } from '../../../../shared/contracts/json.js';
import { type StoredObject, controllerOf, keyOf } from '../../../../shared/contracts/object.js';
import { isNotFound } from '../../../../shared/errors/index.js';
import type { KcpScope } from './scope.js';

/** Kinds that are whole objects of their own, never a Machine's part. */
const NOT_PARTS = new Set(['Machine', 'Secret', 'ConfigMap']);

const partRef = (kind: string | undefined, name: string | undefined) => `${kind ?? ''}/${name ?? ''}`;

/** Pure: the objects `owned` (what lists the KCP as an owner) that are parts no Machine names. */
export function orphanedParts(kcpUid: string, owned: readonly StoredObject[], machines: readonly StoredObject[]): StoredObject[] {
  const named = new Set(
    machines.flatMap((m) => [
      partRef(stringAt(m, 'spec', 'infrastructureRef', 'kind'), stringAt(m, 'spec', 'infrastructureRef', 'name')),
      partRef(stringAt(m, 'spec', 'bootstrap', 'configRef', 'kind'), stringAt(m, 'spec', 'bootstrap', 'configRef', 'name')),
    ]),
  );
  return owned.filter(
    (o) => !NOT_PARTS.has(o.kind) && controllerOf(o)?.uid === kcpUid && !named.has(partRef(o.kind, o.metadata.name)),
  );
}

export async function deleteOrphanedParts(scope: KcpScope): Promise<void> {
  const owned = await scope.ctx.store.listByOwner(scope.object.metadata.uid);
  const machines = owned.filter((o) => o.kind === 'Machine');
  for (const part of orphanedParts(scope.object.metadata.uid, owned, [...machines, ...scope.machines])) {
    try {
      await scope.ctx.store.delete(keyOf(part));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
