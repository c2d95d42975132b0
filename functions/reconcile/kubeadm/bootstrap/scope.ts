import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { ReconcileContext, Scope } from '../../engine/skeleton/types.js';
import type { Endpoint } from '../common/cluster-readiness.js';
import type { BootstrapRole } from './role.js';

/** What the KubeadmConfig phases find, in the order they find it. */
export interface KubeadmConfigScope extends Scope {
  /** Owner Machine (controller ownerRef), once found. */
  machine?: StoredObject;
  cluster?: StoredObject;
  clusterName?: string;
  endpoint?: Endpoint;
  role?: BootstrapRole;
  /** Set once the bootstrap data Secret exists. */
  dataSecretName?: string;
}

export function createKubeadmConfigScope(ctx: ReconcileContext, object: StoredObject): KubeadmConfigScope {
  return { ctx, object, conditions: [] };
}
