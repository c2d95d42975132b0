/**
 * The client certificate capless's etcd calls present (Cluster API's etcd client certificate):
 * issued from the cluster's etcd CA (the `<cluster>-etcd` Secret kubeadm's certificates came
 * from) and kept while that Secret's resourceVersion stays the same.
 */
import { recordAt, stringAt } from '../../contracts/json.js';
import { issueClientCertificate } from '../../pki/index.js';
import type { Clock } from '../../ports/clock.js';
import type { ObjectStore } from '../../ports/object-store.js';
import { type WorkloadClusterRef, WorkloadClusterUnavailableError } from '../../ports/workload-cluster.js';
import type { EtcdCredentials } from './etcd-gateway.js';

const CLIENT_COMMON_NAME = 'cluster-api.x-k8s.io';

function pem(secret: unknown, key: string): string | undefined {
  const encoded = stringAt(recordAt(secret, 'data'), key);
  return encoded ? Buffer.from(encoded, 'base64').toString('utf8') : undefined;
}

export class EtcdCredentialsCache {
  private readonly issued = new Map<string, { resourceVersion: string; credentials: EtcdCredentials }>();

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
  ) {}

  async credentialsFor(cluster: WorkloadClusterRef): Promise<EtcdCredentials> {
    const name = `${cluster.name}-etcd`;
    const secret = await this.store.get({ group: '', kind: 'Secret', namespace: cluster.namespace, name });
    const caPem = pem(secret, 'tls.crt');
    const caKeyPem = pem(secret, 'tls.key');
    if (!secret || !caPem || !caKeyPem) throw new WorkloadClusterUnavailableError('KubeconfigNotFound', `waiting for Secret ${cluster.namespace}/${name} with the etcd CA of Cluster ${cluster.namespace}/${cluster.name}`);
    const key = `${cluster.namespace}/${cluster.name}`;
    const cached = this.issued.get(key);
    if (cached && cached.resourceVersion === secret.metadata.resourceVersion) return cached.credentials;
    const client = await issueClientCertificate({ ca: { certPem: caPem, keyPem: caKeyPem }, commonName: CLIENT_COMMON_NAME, now: this.clock.now() });
    const credentials = { caPem, certPem: client.certPem, keyPem: client.keyPem };
    this.issued.set(key, { resourceVersion: secret.metadata.resourceVersion, credentials });
    return credentials;
  }
}
