/** The simulated infrastructure of an InMemoryCluster: deterministic from its identity. */

import type { FailureDomain } from '../../../../../shared/contracts/providers/fields.js';
import { stableHash } from '../../../engine/hashing/stable-hash.js';

export const SIMULATED_PORT_MIN = 20000;
export const SIMULATED_PORT_MAX = 24000;
export const SIMULATED_FAILURE_DOMAINS: readonly FailureDomain[] = ['fd-a', 'fd-b', 'fd-c'].map((name) => ({
  name,
  controlPlane: true,
}));

/** `<name>.<namespace>.in-memory.capless.local` and a port in 20000–24000 from a hash of the identity. */
export function simulatedEndpoint(namespace: string, name: string): { host: string; port: number } {
  const span = SIMULATED_PORT_MAX - SIMULATED_PORT_MIN + 1;
  return {
    host: `${name}.${namespace}.in-memory.capless.local`,
    port: SIMULATED_PORT_MIN + (stableHash(`${namespace}/${name}`) % span),
  };
}
