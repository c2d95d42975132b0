/** Input of the cloud-config renderer: the KubeadmConfig sections with Secrets already resolved. */
import type { DiskSetupSpec, FileSpec, NtpSpec, UserSpec } from '../types.js';
import type { CertificateFilesInput } from './certificate-files.js';

/** A `write_files` entry; `content` resolved from `contentFrom` by the caller. */
export type CloudInitFile = Omit<FileSpec, 'content' | 'contentFrom' | 'contentFormat'> & { content: string };

/** A user; `passwd` resolved from `passwdFrom` by the caller. */
export type CloudInitUser = Omit<UserSpec, 'passwdFrom'>;

export interface CommonCloudConfigInput {
  /** `spec.files` (then the discovery kubeconfig file, if any), in order. */
  files?: CloudInitFile[];
  preKubeadmCommands?: string[];
  postKubeadmCommands?: string[];
  bootCommands?: string[];
  users?: CloudInitUser[];
  ntp?: NtpSpec;
  diskSetup?: DiskSetupSpec;
  mounts?: string[][];
  /** `spec.verbosity`: adds `--v N` to the kubeadm command. */
  verbosity?: number;
}

export interface InitCloudConfigInput extends CommonCloudConfigInput {
  role: 'init';
  kubeadmDocuments: { clusterConfiguration: string; initConfiguration: string };
  certificates: CertificateFilesInput;
}

export interface ControlPlaneJoinCloudConfigInput extends CommonCloudConfigInput {
  role: 'controlPlaneJoin';
  kubeadmDocuments: { joinConfiguration: string };
  certificates: CertificateFilesInput;
}

export interface WorkerCloudConfigInput extends CommonCloudConfigInput {
  role: 'worker';
  kubeadmDocuments: { joinConfiguration: string };
}

export type CloudConfigInput = InitCloudConfigInput | ControlPlaneJoinCloudConfigInput | WorkerCloudConfigInput;
export type CloudConfigRole = CloudConfigInput['role'];
