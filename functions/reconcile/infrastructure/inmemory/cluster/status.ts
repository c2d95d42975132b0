import type { StatusUpdate } from '../../../engine/skeleton/types.js';
import type { Scope } from '../../../engine/skeleton/types.js';
import { SIMULATED_FAILURE_DOMAINS } from './simulation.js';

/** Always provisioned, with the simulated failure domains (v1beta2 list shape). */
export function computeInMemoryClusterStatus(_s: Scope): StatusUpdate {
  return {
    fields: {
      initialization: { provisioned: true },
      failureDomains: SIMULATED_FAILURE_DOMAINS.map((fd) => ({ ...fd })),
    },
  };
}
