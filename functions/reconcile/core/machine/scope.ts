import { recordAt, stringAt, stringEntriesOf, booleanAt, copyJson } from '../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { MachineAddress } from '../../../../shared/contracts/providers/fields.js';
import type { ProviderLookup } from '../../../../shared/contracts/providers/provider-lookup.js';
import { readAddresses } from '../../../../shared/contracts/providers/fields.js';
import type { WorkloadCluster, WorkloadNode } from '../../../../shared/ports/workload-cluster.js';
import { providerLookupOf } from '../../engine/providers/provider-lookup-port.js';
import { workloadClusterOf } from '../../engine/providers/workload-cluster-port.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';

/**
 * What the Machine phases find. Status facts start from the Machine's own last status so that
 * phases which do not run (deletion) keep them; the phases that run overwrite them.
 */
export interface MachineScope extends Scope {
  lookup: ProviderLookup;
  workloadCluster: WorkloadCluster;
  /** The Machine's metadata and spec as the phases want them; written once, with the status. */
  desired: StoredObject;
  cluster?: StoredObject;
  bootstrapDataSecretCreated: boolean;
  infrastructureProvisioned: boolean;
  addresses: MachineAddress[];
  /** The InfraMachine reports `status.interruptible` (a spot instance): its Node gets the interruptible label. */
  interruptible?: boolean;
  failureDomain?: string;
  node?: WorkloadNode;
  /** The bootstrap config, when the bootstrap phase found it. */
  bootstrapConfig?: StoredObject;
  /** status.certificatesExpiryDate as this run leaves it (kept from the last run unless a phase reads it again). */
  certificatesExpiryDate?: string;
  /** status.deletion as this run leaves it (when the drain started), kept from the last run. */
  deletion: Record<string, string>;
  /**
   * Why the Node must be neither drained nor deleted (Cluster API's isDeleteNodeAllowed), or
   * undefined when it may be: asked once per run (node-deletion.ts).
   */
  nodeStays?: Promise<string | undefined>;
}

function previousNode(object: StoredObject): WorkloadNode | undefined {
  const name = stringAt(object, 'status', 'nodeRef', 'name');
  if (!name) return undefined;
  const info = recordAt(object, 'status', 'nodeInfo');
  const strings = info
    ? Object.fromEntries(Object.entries(info).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined;
  return { name, ...(strings ? { info: strings } : {}) };
}

export function createMachineScope(ctx: ReconcileContext, object: StoredObject): MachineScope {
  const failureDomain = stringAt(object, 'status', 'failureDomain');
  const node = previousNode(object);
  return {
    ctx,
    object,
    conditions: [],
    lookup: providerLookupOf(ctx),
    workloadCluster: workloadClusterOf(ctx),
    // The store's plain JSON: copyJson is its exact copy, several times faster than structuredClone.
    desired: copyJson(object),
    bootstrapDataSecretCreated: booleanAt(object, 'status', 'initialization', 'bootstrapDataSecretCreated') === true,
    infrastructureProvisioned: booleanAt(object, 'status', 'initialization', 'infrastructureProvisioned') === true,
    addresses: readAddresses(object.status?.addresses),
    deletion: stringEntriesOf(recordAt(object, 'status', 'deletion')),
    ...(stringAt(object, 'status', 'certificatesExpiryDate') ? { certificatesExpiryDate: stringAt(object, 'status', 'certificatesExpiryDate') } : {}),
    ...(failureDomain ? { failureDomain } : {}),
    ...(node ? { node } : {}),
  };
}
