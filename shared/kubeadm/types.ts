/**
 * KubeadmConfig spec (bootstrap.cluster.x-k8s.io/v1beta2), the input of the renderers.
 * Field names are exactly Cluster API's (capi-samples/crds/bootstrap.cluster.x-k8s.io_kubeadmconfigs.yaml),
 * so a published KubeadmConfig schema maps onto these one to one. Unknown fields are stripped.
 */
import { z } from 'zod';
import { KEY_ALGORITHMS } from '../pki/key-algorithm.js';

export const argSchema = z.object({ name: z.string(), value: z.string() });
export type Arg = z.infer<typeof argSchema>;

const envVarSchema = z.object({ name: z.string(), value: z.string().optional(), valueFrom: z.unknown().optional() });

export const hostPathMountSchema = z.object({
  name: z.string(),
  hostPath: z.string(),
  mountPath: z.string(),
  readOnly: z.boolean().optional(),
  pathType: z.string().optional(),
});

const controlPlaneComponentSchema = z.object({
  extraArgs: z.array(argSchema).optional(),
  extraVolumes: z.array(hostPathMountSchema).optional(),
  extraEnvs: z.array(envVarSchema).optional(),
});

export const apiServerSchema = controlPlaneComponentSchema.extend({ certSANs: z.array(z.string()).optional() });

export const etcdSchema = z.object({
  local: z
    .object({
      imageRepository: z.string().optional(),
      imageTag: z.string().optional(),
      dataDir: z.string().optional(),
      extraArgs: z.array(argSchema).optional(),
      extraEnvs: z.array(envVarSchema).optional(),
      serverCertSANs: z.array(z.string()).optional(),
      peerCertSANs: z.array(z.string()).optional(),
    })
    .optional(),
  external: z
    .object({ endpoints: z.array(z.string()), caFile: z.string(), certFile: z.string(), keyFile: z.string() })
    .optional(),
});

export const clusterConfigurationSchema = z.object({
  etcd: etcdSchema.optional(),
  controlPlaneEndpoint: z.string().optional(),
  apiServer: apiServerSchema.optional(),
  controllerManager: controlPlaneComponentSchema.optional(),
  scheduler: controlPlaneComponentSchema.optional(),
  dns: z.object({ imageRepository: z.string().optional(), imageTag: z.string().optional() }).optional(),
  certificatesDir: z.string().optional(),
  imageRepository: z.string().optional(),
  featureGates: z.record(z.string(), z.boolean()).optional(),
  encryptionAlgorithm: z.enum(KEY_ALGORITHMS).optional(),
  certificateValidityPeriodDays: z.number().int().optional(),
  caCertificateValidityPeriodDays: z.number().int().optional(),
});
export type ClusterConfigurationSpec = z.infer<typeof clusterConfigurationSchema>;

export const taintSchema = z.object({
  key: z.string(),
  value: z.string().optional(),
  effect: z.string(),
  timeAdded: z.string().optional(),
});
export type Taint = z.infer<typeof taintSchema>;

export const nodeRegistrationSchema = z.object({
  name: z.string().optional(),
  criSocket: z.string().optional(),
  /** Unset means kubeadm's default (`taints: null`); an empty list means no taints. */
  taints: z.array(taintSchema).optional(),
  kubeletExtraArgs: z.array(argSchema).optional(),
  ignorePreflightErrors: z.array(z.string()).optional(),
  imagePullPolicy: z.enum(['Always', 'IfNotPresent', 'Never']).optional(),
  imagePullSerial: z.boolean().optional(),
});
export type NodeRegistrationSpec = z.infer<typeof nodeRegistrationSchema>;

export const timeoutsSchema = z.object({
  controlPlaneComponentHealthCheckSeconds: z.number().int().optional(),
  kubeletHealthCheckSeconds: z.number().int().optional(),
  kubernetesAPICallSeconds: z.number().int().optional(),
  etcdAPICallSeconds: z.number().int().optional(),
  tlsBootstrapSeconds: z.number().int().optional(),
  discoverySeconds: z.number().int().optional(),
});
export type TimeoutsSpec = z.infer<typeof timeoutsSchema>;

const apiEndpointSchema = z.object({ advertiseAddress: z.string().optional(), bindPort: z.number().int().optional() });

export const bootstrapTokenSpecSchema = z.object({
  token: z.string(),
  description: z.string().optional(),
  ttlSeconds: z.number().int().optional(),
  expires: z.string().optional(),
  usages: z.array(z.string()).optional(),
  groups: z.array(z.string()).optional(),
});

export const initConfigurationSchema = z.object({
  bootstrapTokens: z.array(bootstrapTokenSpecSchema).optional(),
  nodeRegistration: nodeRegistrationSchema.optional(),
  localAPIEndpoint: apiEndpointSchema.optional(),
  skipPhases: z.array(z.string()).optional(),
  patches: z.object({ directory: z.string().optional() }).optional(),
  timeouts: timeoutsSchema.optional(),
});
export type InitConfigurationSpec = z.infer<typeof initConfigurationSchema>;

export const bootstrapTokenDiscoverySchema = z.object({
  token: z.string().optional(),
  apiServerEndpoint: z.string().optional(),
  caCertHashes: z.array(z.string()).optional(),
  unsafeSkipCAVerification: z.boolean().optional(),
});
export type BootstrapTokenDiscoverySpec = z.infer<typeof bootstrapTokenDiscoverySchema>;

export const discoverySchema = z.object({
  bootstrapToken: bootstrapTokenDiscoverySchema.optional(),
  file: z.object({ kubeConfigPath: z.string(), kubeConfig: z.unknown().optional() }).optional(),
  tlsBootstrapToken: z.string().optional(),
});
export type DiscoverySpec = z.infer<typeof discoverySchema>;

export const joinConfigurationSchema = z.object({
  nodeRegistration: nodeRegistrationSchema.optional(),
  caCertPath: z.string().optional(),
  discovery: discoverySchema.optional(),
  controlPlane: z.object({ localAPIEndpoint: apiEndpointSchema.optional() }).optional(),
  skipPhases: z.array(z.string()).optional(),
  patches: z.object({ directory: z.string().optional() }).optional(),
  timeouts: timeoutsSchema.optional(),
});
export type JoinConfigurationSpec = z.infer<typeof joinConfigurationSchema>;

const secretKeySelectorSchema = z.object({ secret: z.object({ name: z.string(), key: z.string() }) });

export const fileSchema = z.object({
  path: z.string(),
  owner: z.string().optional(),
  permissions: z.string().optional(),
  encoding: z.enum(['base64', 'gzip', 'gzip+base64']).optional(),
  append: z.boolean().optional(),
  content: z.string().optional(),
  contentFrom: secretKeySelectorSchema.optional(),
  contentFormat: z.enum(['Raw', 'Template']).optional(),
});
export type FileSpec = z.infer<typeof fileSchema>;

export const userSchema = z.object({
  name: z.string(),
  gecos: z.string().optional(),
  groups: z.string().optional(),
  homeDir: z.string().optional(),
  inactive: z.boolean().optional(),
  shell: z.string().optional(),
  passwd: z.string().optional(),
  passwdFrom: secretKeySelectorSchema.optional(),
  primaryGroup: z.string().optional(),
  lockPassword: z.boolean().optional(),
  sudo: z.string().optional(),
  sshAuthorizedKeys: z.array(z.string()).optional(),
});
export type UserSpec = z.infer<typeof userSchema>;

export const ntpSchema = z.object({ servers: z.array(z.string()).optional(), enabled: z.boolean().optional() });
export type NtpSpec = z.infer<typeof ntpSchema>;

export const PARTITION_TYPES = ['Linux', 'LinuxSwap', 'LinuxRAID', 'LVM', 'Fat32', 'NTFS', 'LinuxExtended'] as const;

export const partitionSchema = z.object({
  device: z.string(),
  layout: z.boolean().optional(),
  diskLayout: z
    .array(z.object({ percentage: z.number().int(), partitionType: z.string().optional() }))
    .optional(),
  overwrite: z.boolean().optional(),
  tableType: z.enum(['mbr', 'gpt']).optional(),
});

export const filesystemSchema = z.object({
  device: z.string(),
  filesystem: z.string(),
  label: z.string().optional(),
  partition: z.string().optional(),
  overwrite: z.boolean().optional(),
  replaceFS: z.string().optional(),
  extraOpts: z.array(z.string()).optional(),
});

export const diskSetupSchema = z.object({
  partitions: z.array(partitionSchema).optional(),
  filesystems: z.array(filesystemSchema).optional(),
});
export type DiskSetupSpec = z.infer<typeof diskSetupSchema>;

export const kubeadmConfigSpecSchema = z.object({
  clusterConfiguration: clusterConfigurationSchema.optional(),
  initConfiguration: initConfigurationSchema.optional(),
  joinConfiguration: joinConfigurationSchema.optional(),
  files: z.array(fileSchema).optional(),
  diskSetup: diskSetupSchema.optional(),
  mounts: z.array(z.array(z.string())).optional(),
  bootCommands: z.array(z.string()).optional(),
  preKubeadmCommands: z.array(z.string()).optional(),
  postKubeadmCommands: z.array(z.string()).optional(),
  users: z.array(userSchema).optional(),
  ntp: ntpSchema.optional(),
  format: z.enum(['cloud-config', 'ignition']).optional(),
  verbosity: z.number().int().optional(),
  ignition: z.unknown().optional(),
});
export type KubeadmConfigSpec = z.infer<typeof kubeadmConfigSpecSchema>;

/** What the renderers need from the Cluster (cluster.x-k8s.io/v1beta2 `spec`). */
export interface KubeadmClusterInput {
  name: string;
  controlPlaneEndpoint?: { host: string; port: number };
  clusterNetwork?: {
    apiServerPort?: number;
    services?: { cidrBlocks?: string[] };
    pods?: { cidrBlocks?: string[] };
    serviceDomain?: string;
  };
}
