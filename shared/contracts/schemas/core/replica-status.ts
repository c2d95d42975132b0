/** Replica counters shared by MachineSet, MachineDeployment and control planes. */

import { z } from 'zod';
import { int32 } from '../common/names.js';
import { baseStatusSchema } from '../common/status.js';

export const replicaStatusSchema = baseStatusSchema.extend({
  selector: z.string().optional(),
  replicas: int32().optional(),
  readyReplicas: int32().optional(),
  availableReplicas: int32().optional(),
  upToDateReplicas: int32().optional(),
  phase: z.string().optional(),
});
