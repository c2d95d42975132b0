/**
 * `KubeadmConfigSpec`: strict at the top (the fields CABPK defines), passthrough inside the
 * kubeadm structs (clusterConfiguration, init/joinConfiguration …), which follow kubeadm's own
 * API and evolve with it.
 */

import { z } from 'zod';
import { int32 } from '../common/names.js';
import { openRecord } from '../common/status.js';

export const kubeadmFormatSchema = z.enum(['cloud-config', 'ignition']);

export const fileSchema = z.looseObject({
  path: z.string().min(1).max(512),
  owner: z.string().optional(),
  permissions: z.string().optional(),
  encoding: z.enum(['base64', 'gzip', 'gzip+base64']).optional(),
  append: z.boolean().optional(),
  content: z.string().optional(),
  contentFrom: z.looseObject({ secret: z.strictObject({ name: z.string().min(1), key: z.string().min(1) }) }).optional(),
});

export const clusterConfigurationSchema = z.looseObject({
  etcd: z
    .looseObject({
      local: openRecord.optional(),
      external: z.looseObject({ endpoints: z.array(z.string()) }).optional(),
    })
    .optional(),
  controlPlaneEndpoint: z.string().max(512).optional(),
  imageRepository: z.string().max(512).optional(),
  certificatesDir: z.string().max(512).optional(),
  encryptionAlgorithm: z.enum(['ECDSA-P256', 'ECDSA-P384', 'RSA-2048', 'RSA-3072', 'RSA-4096']).optional(),
  caCertificateValidityPeriodDays: int32().min(1).max(36_500).optional(),
  certificateValidityPeriodDays: int32().min(1).max(1095).optional(),
});

const timeoutSeconds = () => int32().min(0).optional();

/** kubeadm's `timeouts` block of init and join configurations. */
const kubeadmTimeoutsSchema = z.looseObject({
  controlPlaneComponentHealthCheckSeconds: timeoutSeconds(),
  discoverySeconds: timeoutSeconds(),
  etcdAPICallSeconds: timeoutSeconds(),
  kubeletHealthCheckSeconds: timeoutSeconds(),
  kubernetesAPICallSeconds: timeoutSeconds(),
  tlsBootstrapSeconds: timeoutSeconds(),
});

const localAPIEndpointSchema = z.looseObject({ bindPort: int32().min(1).optional() });

export const initConfigurationSchema = z.looseObject({
  bootstrapTokens: z.array(z.looseObject({ ttlSeconds: int32().min(0).optional() })).optional(),
  localAPIEndpoint: localAPIEndpointSchema.optional(),
  timeouts: kubeadmTimeoutsSchema.optional(),
});

export const joinConfigurationSchema = z.looseObject({
  controlPlane: z.looseObject({ localAPIEndpoint: localAPIEndpointSchema.optional() }).optional(),
  timeouts: kubeadmTimeoutsSchema.optional(),
});

export const diskSetupSchema = z.looseObject({
  partitions: z
    .array(z.looseObject({ diskLayout: z.array(z.looseObject({ percentage: int32().min(1).max(100) })).optional() }))
    .optional(),
});

const commands = z.array(z.string().max(10240));

export const kubeadmConfigSpecSchema = z.strictObject({
  clusterConfiguration: clusterConfigurationSchema.optional(),
  initConfiguration: initConfigurationSchema.optional(),
  joinConfiguration: joinConfigurationSchema.optional(),
  files: z.array(fileSchema).optional(),
  diskSetup: diskSetupSchema.optional(),
  mounts: z.array(z.array(z.string())).optional(),
  bootCommands: commands.optional(),
  preKubeadmCommands: commands.optional(),
  postKubeadmCommands: commands.optional(),
  users: z.array(z.looseObject({ name: z.string().min(1) })).optional(),
  ntp: z.strictObject({ enabled: z.boolean().optional(), servers: z.array(z.string()).optional() }).optional(),
  format: kubeadmFormatSchema.optional(),
  verbosity: int32().optional(),
  ignition: openRecord.optional(),
});

export type KubeadmConfigSpec = z.infer<typeof kubeadmConfigSpecSchema>;
