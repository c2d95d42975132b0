/**
 * The seam to the kubeadm library (shared/kubeadm): turns what the reconciler gathered into the
 * cloud-config text and the Secret's base64 `value`.
 */

import { TerminalError } from '../../../../shared/errors/index.js';
import {
  type CloudConfigInput,
  type CommonCloudConfigInput,
  type KubeadmClusterInput,
  type KubeadmConfigSpec,
  encodeBootstrapData,
  fillJoinDiscovery,
  kubeadmConfigSpecSchema,
  renderCloudConfig,
  renderInitDocuments,
  renderJoinDocument,
} from '../../../../shared/kubeadm/index.js';
import { API_SERVER_ETCD_CLIENT, type FoundCertificates } from '../common/cluster-certificates.js';
import type { Endpoint } from '../common/cluster-readiness.js';
import { encodeSecretValue } from '../common/secret-data.js';
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
  clusterNetwork?: KubeadmClusterInput['clusterNetwork'];
  /**
   * All four pairs for init and control-plane joins (with an external etcd: its CA a certificate
   * only, and the API server's client pair for it); only `ca` for workers.
   */
  certificates?: FoundCertificates;
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
  /** The cloud-config text (not stored anywhere but the Secret). */
  text: string;
}

export function parseKubeadmConfigSpec(spec: Record<string, unknown>): KubeadmConfigSpec {
  const parsed = kubeadmConfigSpecSchema.safeParse(spec);
  if (!parsed.success) throw new TerminalError('InvalidSpec', `invalid KubeadmConfig spec: ${parsed.error.message}`);
  if (parsed.data.format === 'ignition') throw new TerminalError('UnsupportedFormat', 'format ignition is not supported; use cloud-config');
  return parsed.data;
}

function commonInput(spec: KubeadmConfigSpec): CommonCloudConfigInput {
  const files = (spec.files ?? []).map(({ contentFrom, contentFormat: _format, content, ...file }) => {
    // resolve-sources.ts replaces contentFrom before rendering; one left here was never resolved.
    if (contentFrom) throw new TerminalError('UnresolvedField', `files[${file.path}].contentFrom was not resolved`);
    return { ...file, content: content ?? '' };
  });
  const users = (spec.users ?? []).map(({ passwdFrom: _passwdFrom, ...user }) => user);
  return {
    ...(files.length ? { files } : {}),
    ...(users.length ? { users } : {}),
    ...(spec.preKubeadmCommands ? { preKubeadmCommands: spec.preKubeadmCommands } : {}),
    ...(spec.postKubeadmCommands ? { postKubeadmCommands: spec.postKubeadmCommands } : {}),
    ...(spec.bootCommands ? { bootCommands: spec.bootCommands } : {}),
    ...(spec.ntp ? { ntp: spec.ntp } : {}),
    ...(spec.diskSetup ? { diskSetup: spec.diskSetup } : {}),
    ...(spec.mounts ? { mounts: spec.mounts } : {}),
    ...(spec.verbosity !== undefined ? { verbosity: spec.verbosity } : {}),
  };
}

function tlsData(pair: { cert: string; key: string }) {
  return { 'tls.crt': pair.cert, 'tls.key': pair.key };
}

/**
 * The certificate files' input: the cluster's pairs by purpose and, with an external etcd, where
 * its CA and the API server's client pair go (Cluster API writes them at the spec's caFile,
 * certFile and keyFile).
 */
function certificateFilesInput(spec: KubeadmConfigSpec, certificates: FoundCertificates | undefined) {
  const { [API_SERVER_ETCD_CLIENT]: apiServerEtcdClient, ...generated } = certificates ?? {};
  const data = Object.fromEntries(Object.entries(generated).map(([purpose, pair]) => [purpose, tlsData(pair)]));
  const certificatesDir = spec.clusterConfiguration?.certificatesDir;
  const external = spec.clusterConfiguration?.etcd?.external;
  return {
    data,
    ...(certificatesDir ? { certificatesDir } : {}),
    ...(external ? { externalEtcd: { caFile: external.caFile, certFile: external.certFile, keyFile: external.keyFile } } : {}),
    ...(external && apiServerEtcdClient ? { apiServerEtcdClient: tlsData(apiServerEtcdClient) } : {}),
  };
}

export function cloudConfigInput(request: RenderRequest): CloudConfigInput {
  const spec = parseKubeadmConfigSpec(request.spec);
  const cluster: KubeadmClusterInput = {
    name: request.clusterName,
    controlPlaneEndpoint: request.endpoint,
    ...(request.clusterNetwork ? { clusterNetwork: request.clusterNetwork } : {}),
  };
  const common = commonInput(spec);
  const certificates = certificateFilesInput(spec, request.certificates);
  if (request.role === 'init') {
    const docs = renderInitDocuments({ spec, cluster, kubernetesVersion: request.version });
    return { ...common, role: 'init', kubeadmDocuments: docs, certificates };
  }
  const discovery = fillJoinDiscovery({
    joinConfiguration: spec.joinConfiguration,
    cluster,
    newToken: request.token ?? '',
    ...(request.certificates?.ca ? { caCertPem: request.certificates.ca.cert } : {}),
  });
  const joinSpec = { ...spec, joinConfiguration: discovery.joinConfiguration };
  if (request.role === 'controlPlaneJoin') {
    const doc = renderJoinDocument({ spec: joinSpec, role: 'controlPlane', kubernetesVersion: request.version });
    return { ...common, role: 'controlPlaneJoin', kubeadmDocuments: doc, certificates };
  }
  const doc = renderJoinDocument({ spec: joinSpec, role: 'worker', kubernetesVersion: request.version });
  return { ...common, role: 'worker', kubeadmDocuments: doc };
}

export function renderBootstrapData(request: RenderRequest): RenderedBootstrapData {
  const text = renderCloudConfig(cloudConfigInput(request));
  const encoded = encodeBootstrapData(text);
  return {
    value: encoded.gzipped ? encoded.value : encodeSecretValue(encoded.value),
    format: 'cloud-config',
    bytes: encoded.bytes,
    gzipped: encoded.gzipped,
    withinUserDataLimit: encoded.withinUserDataLimit,
    text,
  };
}
