/**
 * The seam to the kubeadm library (shared/kubeadm, shared/pki): turns what the reconciler
 * gathered into the cloud-config text and its encoded Secret value.
 */

import { TransientError } from '../../../shared/errors/index.js';
import type { ClusterCertificates } from '../kubeadm-common/cluster-certificates.js';
import type { Endpoint } from '../kubeadm-common/cluster-readiness.js';
import type { BootstrapRole } from './role.js';

export interface RenderRequest {
  role: BootstrapRole;
  clusterName: string;
  endpoint: Endpoint;
  /** The Machine's spec.version. */
  version: string;
  /** The KubeadmConfig spec as stored. */
  spec: Record<string, unknown>;
  /** Cluster.spec.clusterNetwork, if any. */
  clusterNetwork?: Record<string, unknown>;
  /** All four pairs for init and control-plane joins; only `ca` for workers. */
  certificates?: Partial<ClusterCertificates>;
  /** Joins only. */
  token?: string;
}

export interface RenderedBootstrapData {
  /** base64 of the document or of its gzip, ready for Secret `data.value`. */
  value: string;
  format: 'cloud-config';
  bytes: number;
  gzipped: boolean;
  withinUserDataLimit: boolean;
}

export async function renderBootstrapData(_request: RenderRequest): Promise<RenderedBootstrapData> {
  throw new TransientError('kubeadm renderer not available yet');
}

