/**
 * Validation of the ipam.cluster.x-k8s.io kinds: IPAddress (C14
 * `internal/webhooks/ipaddress.go`) and the in-cluster provider's pools
 * (`internal/webhooks/inclusterippool.go`). Immutability of claim and address specs is in
 * immutability.ts.
 */

import { parseIp } from '../../ipam/ip.js';
import { analysePool } from '../../ipam/pool-spec.js';
import type { InClusterIPPool } from '../schemas/ipam/in-cluster-ip-pool.js';
import type { IPAddress, IPAddressClaim } from '../schemas/ipam/ip-address.js';
import type { ValidationContext } from './context.js';
import { type FieldError, invalid } from './field-error.js';
import { validateServedReference } from './references.js';

export function validateIPAddress(address: IPAddress): FieldError[] {
  const { spec } = address;
  const errors: FieldError[] = [];
  const ip = parseIp(spec.address);
  if (!ip) errors.push(invalid('spec.address', spec.address, 'not a valid IP address'));
  if (ip?.family === 4 && spec.prefix > 32) errors.push(invalid('spec.prefix', spec.prefix, 'prefix is too large for an IPv4 address'));
  if (spec.gateway !== undefined) {
    const gateway = parseIp(spec.gateway);
    if (!gateway) errors.push(invalid('spec.gateway', spec.gateway, 'not a valid IP address'));
    else if (ip && gateway.family !== ip.family) errors.push(invalid('spec.gateway', spec.gateway, 'gateway and address must be of the same IP family'));
  }
  return errors;
}

/** Cluster API does not validate claims on create; capless refuses a pool kind no provider serves. */
export function validateIPAddressClaim(claim: IPAddressClaim, ctx: ValidationContext): FieldError[] {
  return validateServedReference(claim.spec.poolRef, 'spec.poolRef', ctx);
}

export function validateInClusterIPPool(pool: InClusterIPPool): FieldError[] {
  const analysis = analysePool(pool.spec);
  if (analysis.ok) return [];
  return analysis.problems.map((p) => invalid(`spec.${p.field}`, p.value, p.detail));
}
