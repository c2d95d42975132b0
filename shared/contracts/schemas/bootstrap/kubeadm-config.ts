import { z } from 'zod';
import { envelope, templateOf } from '../common/envelope.js';
import { baseStatusSchema } from '../common/status.js';
import { kubeadmConfigSpecSchema } from './kubeadm-config-spec.js';

export const kubeadmConfigStatusSchema = baseStatusSchema.extend({
  initialization: z.looseObject({ dataSecretCreated: z.boolean().optional() }).optional(),
  dataSecretName: z.string().optional(),
});

export const kubeadmConfigSchema = z.strictObject({
  ...envelope,
  spec: kubeadmConfigSpecSchema.optional(),
  status: kubeadmConfigStatusSchema.optional(),
});

/** As Cluster API's CRD: `spec` and `spec.template.spec` may be absent (e2e's bases/md.yaml has no spec at all). */
export const kubeadmConfigTemplateSchema = z.strictObject({
  ...envelope,
  spec: templateOf(kubeadmConfigSpecSchema.optional()).optional(),
});

export type KubeadmConfig = z.infer<typeof kubeadmConfigSchema>;
export type KubeadmConfigStatus = z.infer<typeof kubeadmConfigStatusSchema>;
export type KubeadmConfigTemplate = z.infer<typeof kubeadmConfigTemplateSchema>;
