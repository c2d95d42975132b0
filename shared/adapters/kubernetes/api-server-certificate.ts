/**
 * The expiry of a Node's kube-apiserver serving certificate, read as Cluster API's
 * GetAPIServerCertificateExpiry reads it: a port-forward through the cluster's API server to the
 * static Pod `kube-system/kube-apiserver-<node>`, a TLS handshake over it (the certificate is
 * read, not trusted: nothing is sent after the handshake), and the NotAfter of the peer
 * certificate whose CN is `kube-apiserver`. No such Pod (the port-forward answered 404) is
 * undefined; refused credentials (401, 403) are access denied; anything else that fails, or takes
 * longer than the deadline, is transient.
 */
import { type TLSSocket, connect as tlsConnect, type DetailedPeerCertificate } from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { WorkloadClusterUnavailableError } from '../../ports/workload-cluster.js';
import { forwardPort, handshake } from './port-forward.js';

const KUBE_APISERVER_CN = 'kube-apiserver';

/** The chain the server presented, leaf first (Node links each certificate to its issuer, the root to itself). */
function peerChain(socket: TLSSocket): DetailedPeerCertificate[] {
  const chain: DetailedPeerCertificate[] = [];
  let current: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (current && Object.keys(current).length > 0 && !chain.includes(current)) {
    chain.push(current);
    current = current.issuerCertificate;
  }
  return chain;
}

export async function apiServerCertificateNotAfter(config: KubeConfig, nodeName: string, port: number, deadlineMs: number): Promise<string | undefined> {
  const what = `reading the certificate of kube-apiserver on Node ${nodeName}`;
  const forwarded = await forwardPort(config, { namespace: 'kube-system', name: `kube-apiserver-${nodeName}` }, port, deadlineMs, what);
  if (!forwarded) return undefined;
  const tls = tlsConnect({ socket: forwarded.stream, rejectUnauthorized: false });
  try {
    await handshake(tls, deadlineMs, what);
    const certificate = peerChain(tls).find((c) => c.subject?.CN === KUBE_APISERVER_CN);
    if (!certificate) throw new WorkloadClusterUnavailableError('ConnectionDown', `${what}: couldn't get peer certificate with cn="${KUBE_APISERVER_CN}"`);
    return `${new Date(certificate.valid_to).toISOString().slice(0, 19)}Z`;
  } finally {
    tls.destroy();
    forwarded.close();
  }
}
