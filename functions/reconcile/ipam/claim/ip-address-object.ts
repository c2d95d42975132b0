/** The IPAddress a claim gets (C14 IPAM contract: the claim's name, owners, protective finalizer). */

import { type KubeObject, LABEL_CLUSTER_NAME, ownerReferenceTo, type StoredObject } from '../../../../shared/contracts/object.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import type { ContractRef } from '../../../../shared/contracts/schemas/common/references.js';
import { formatIp, type Ip } from '../../../../shared/ipam/ip.js';
import { FINALIZER_PROTECT_ADDRESS, IPAM_V1BETA2 } from '../well-known.js';

export interface AddressGrant {
  address: Ip;
  prefix: number;
  gateway?: Ip | undefined;
}

export function ipAddressFor(claim: StoredObject, pool: StoredObject, poolRef: ContractRef, grant: AddressGrant): KubeObject {
  const cluster = claim.metadata.labels?.[LABEL_CLUSTER_NAME];
  return {
    apiVersion: IPAM_V1BETA2,
    kind: 'IPAddress',
    metadata: {
      name: claim.metadata.name,
      namespace: claim.metadata.namespace,
      ...(cluster ? { labels: { [LABEL_CLUSTER_NAME]: cluster } } : {}),
      ownerReferences: [ownerReferenceTo(claim, true), ownerReferenceTo(pool, false)],
      finalizers: [FINALIZER_PROTECT_ADDRESS],
    },
    spec: {
      claimRef: { name: claim.metadata.name },
      poolRef,
      address: formatIp(grant.address),
      prefix: grant.prefix,
      ...(grant.gateway ? { gateway: formatIp(grant.gateway) } : {}),
    },
  };
}

/** An IPAddress named like the claim that was made for it (and not, say, by hand for another claim). */
export function belongsToClaim(address: StoredObject, claim: StoredObject): boolean {
  return stringAt(address, 'spec', 'claimRef', 'name') === claim.metadata.name && address.metadata.ownerReferences?.some((r) => r.uid === claim.metadata.uid) === true;
}
