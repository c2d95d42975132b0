/**
 * The certificate and key files a control-plane node gets (Cluster API util/secret
 * `Certificates.AsFiles`): order ca, etcd, proxy, sa, apiserver-etcd-client; certs `0640`,
 * keys `0600`, `root:root`; only non-empty ones.
 */
import type { ClusterCertificatePurpose, TlsSecretData } from '../../pki/cluster-certificates.js';
import type { CloudInitFile } from './types.js';

export const DEFAULT_CERTIFICATES_DIR = '/etc/kubernetes/pki';

export interface ExternalEtcdFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}

export interface CertificateFilesInput {
  /** Secret data by purpose (`<cluster>-ca` → `ca`, …). */
  data: Partial<Record<ClusterCertificatePurpose, Partial<TlsSecretData>>>;
  /** `clusterConfiguration.certificatesDir`. @default '/etc/kubernetes/pki' */
  certificatesDir?: string;
  /** `clusterConfiguration.etcd.external`: the etcd CA is then a certificate only, at `caFile`. */
  externalEtcd?: ExternalEtcdFiles;
  /** `<cluster>-apiserver-etcd-client` (user-supplied, external etcd only). */
  apiServerEtcdClient?: Partial<TlsSecretData>;
}

interface CertificateSlot {
  name: string;
  pair: Partial<TlsSecretData> | undefined;
  certFile: string;
  keyFile?: string;
}

function slots(input: CertificateFilesInput): CertificateSlot[] {
  const dir = (input.certificatesDir || DEFAULT_CERTIFICATES_DIR).replace(/\/+$/, '');
  const external = input.externalEtcd;
  const list: CertificateSlot[] = [
    { name: 'ca', pair: input.data.ca, certFile: `${dir}/ca.crt`, keyFile: `${dir}/ca.key` },
    external
      ? { name: 'etcd', pair: input.data.etcd, certFile: external.caFile }
      : { name: 'etcd', pair: input.data.etcd, certFile: `${dir}/etcd/ca.crt`, keyFile: `${dir}/etcd/ca.key` },
    {
      name: 'proxy',
      pair: input.data.proxy,
      certFile: `${dir}/front-proxy-ca.crt`,
      keyFile: `${dir}/front-proxy-ca.key`,
    },
    { name: 'sa', pair: input.data.sa, certFile: `${dir}/sa.pub`, keyFile: `${dir}/sa.key` },
  ];
  if (external) {
    list.push({
      name: 'apiserver-etcd-client',
      pair: input.apiServerEtcdClient,
      certFile: external.certFile,
      keyFile: external.keyFile,
    });
  }
  return list;
}

export function certificateFiles(input: CertificateFilesInput): CloudInitFile[] {
  const files: CloudInitFile[] = [];
  for (const slot of slots(input)) {
    const cert = slot.pair?.['tls.crt'];
    const key = slot.pair?.['tls.key'];
    if (cert) files.push({ path: slot.certFile, owner: 'root:root', permissions: '0640', content: cert });
    if (key && slot.keyFile) files.push({ path: slot.keyFile, owner: 'root:root', permissions: '0600', content: key });
  }
  return files;
}

/** What a control-plane node still lacks (Cluster API `EnsureAllExist`), e.g. `['sa: tls.key']`. */
export function missingCertificates(input: CertificateFilesInput): string[] {
  const missing: string[] = [];
  for (const slot of slots(input)) {
    if (!slot.pair?.['tls.crt']) missing.push(`${slot.name}: tls.crt`);
    if (slot.keyFile && !slot.pair?.['tls.key']) missing.push(`${slot.name}: tls.key`);
  }
  return missing;
}
