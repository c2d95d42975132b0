/** Replica counters shared by MachineSet, MachineDeployment and control planes. */

import { z } from 'zod';
import { baseStatusSchema } from '../common/status.js';

export const replicaStatusSchema = baseStatusSchema.extend({
  selector: z.string().optional(),
  replicas: z.int().optional(),
  readyReplicas: z.int().optional(),
  availableReplicas: z.int().optional(),
  upToDateReplicas: z.int().optional(),
  phase: z.string().optional(),
});
