/**
 * Cluster API Provider AWS kinds (infrastructure.cluster.x-k8s.io/v1beta2), admitted by CAPA's
 * own CRD schemas (vendored under ./crd/). Status is written by capless's reconcilers and kept
 * tolerant like every other kind's status.
 */

import { z } from 'zod';
import { envelope } from '../../common/envelope.js';
import { baseStatusSchema } from '../../common/status.js';
import { zodObjectFromStructural } from '../../common/structural-schema.js';
import { awsClusterSpecCrdSchema } from './crd/awsclusters.js';
import { awsClusterTemplateSpecCrdSchema } from './crd/awsclustertemplates.js';
import { awsMachineSpecCrdSchema } from './crd/awsmachines.js';
import { awsMachineTemplateSpecCrdSchema } from './crd/awsmachinetemplates.js';

export const awsClusterSchema = z.strictObject({
  ...envelope,
  spec: zodObjectFromStructural(awsClusterSpecCrdSchema).optional(),
  status: baseStatusSchema.optional(),
});

export const awsClusterTemplateSchema = z.strictObject({
  ...envelope,
  spec: zodObjectFromStructural(awsClusterTemplateSpecCrdSchema),
});

export const awsMachineSchema = z.strictObject({
  ...envelope,
  spec: zodObjectFromStructural(awsMachineSpecCrdSchema),
  status: baseStatusSchema.optional(),
});

export const awsMachineTemplateSchema = z.strictObject({
  ...envelope,
  spec: zodObjectFromStructural(awsMachineTemplateSpecCrdSchema),
  status: baseStatusSchema.optional(),
});
