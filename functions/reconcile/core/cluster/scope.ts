import { booleanAt, copyJson } from '../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { FailureDomain } from '../../../../shared/contracts/providers/fields.js';
import { readFailureDomains } from '../../../../shared/contracts/providers/fields.js';
import type { ProviderLookup } from '../../../../shared/contracts/providers/provider-lookup.js';
import { providerLookupOf } from '../../engine/providers/provider-lookup-port.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';
import type { ReplicaCounters } from './counters.js';

export interface ClusterScope extends Scope {
  lookup: ProviderLookup;
  /** Metadata/spec as the phases want them; written once, with the status (the topology phase may write them earlier). */
  desired: StoredObject;
  infrastructureProvisioned: boolean;
  controlPlaneInitialized: boolean;
  failureDomains: FailureDomain[];
  controlPlane?: ReplicaCounters;
  workers?: ReplicaCounters;
  /** Every object labelled with this cluster's name (one listByCluster per run). */
  descendants: StoredObject[];
}

export function createClusterScope(ctx: ReconcileContext, object: StoredObject): ClusterScope {
  return {
    ctx,
    object,
    conditions: [],
    lookup: providerLookupOf(ctx),
    // The store's plain JSON: copyJson is its exact copy, several times faster than structuredClone.
    desired: copyJson(object),
    infrastructureProvisioned: booleanAt(object, 'status', 'initialization', 'infrastructureProvisioned') === true,
    controlPlaneInitialized: booleanAt(object, 'status', 'initialization', 'controlPlaneInitialized') === true,
    failureDomains: readFailureDomains(object.status?.failureDomains),
    descendants: [],
  };
}
