/**
 * `KubeadmConfigSpec`: strict at the top (the fields CABPK defines), passthrough inside the
 * kubeadm structs (clusterConfiguration, init/joinConfiguration …), which follow kubeadm's own
 * API and evolve with it.
 */

import { z } from 'zod';
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
});

const commands = z.array(z.string().max(10240));

export const kubeadmConfigSpecSchema = z.strictObject({
  clusterConfiguration: clusterConfigurationSchema.optional(),
  initConfiguration: openRecord.optional(),
  joinConfiguration: openRecord.optional(),
  files: z.array(fileSchema).optional(),
  diskSetup: openRecord.optional(),
  mounts: z.array(z.array(z.string())).optional(),
  bootCommands: commands.optional(),
  preKubeadmCommands: commands.optional(),
  postKubeadmCommands: commands.optional(),
  users: z.array(z.looseObject({ name: z.string().min(1) })).optional(),
  ntp: z.strictObject({ enabled: z.boolean().optional(), servers: z.array(z.string()).optional() }).optional(),
  format: kubeadmFormatSchema.optional(),
  verbosity: z.int().optional(),
  ignition: openRecord.optional(),
});

export type KubeadmConfigSpec = z.infer<typeof kubeadmConfigSpecSchema>;
