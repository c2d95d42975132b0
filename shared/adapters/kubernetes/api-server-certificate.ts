/**
 * The expiry of a Node's kube-apiserver serving certificate, read as Cluster API's
 * GetAPIServerCertificateExpiry reads it: a port-forward through the cluster's API server to the
 * static Pod `kube-system/kube-apiserver-<node>`, a TLS handshake over it (the certificate is
 * read, not trusted: nothing is sent after the handshake), and the NotAfter of the peer
 * certificate whose CN is `kube-apiserver`. No such Pod (the port-forward answered 404) is
 * undefined; refused credentials (401, 403) are access denied; anything else that fails, or takes
 * longer than the deadline, is transient.
 */
import { Duplex, PassThrough } from 'node:stream';
import { type TLSSocket, connect as tlsConnect, type DetailedPeerCertificate } from 'node:tls';
import { type KubeConfig, PortForward } from '@kubernetes/client-node';
import { isRecord } from '../../contracts/json.js';
import { WorkloadClusterAccessDeniedError, WorkloadClusterUnavailableError } from '../../ports/workload-cluster.js';

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

function handshake(socket: TLSSocket, deadlineMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new WorkloadClusterUnavailableError('ConnectionDown', `${what}: no TLS handshake within ${deadlineMs} ms`)), deadlineMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new WorkloadClusterUnavailableError('ConnectionDown', `${what}: TLS handshake with the kube-apiserver failed: ${error.message}`, { cause: error }));
    });
  });
}

function withinDeadline<T>(promise: Promise<T>, deadlineMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WorkloadClusterUnavailableError('ConnectionDown', message)), deadlineMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export async function apiServerCertificateNotAfter(config: KubeConfig, nodeName: string, port: number, deadlineMs: number): Promise<string | undefined> {
  const what = `reading the certificate of kube-apiserver on Node ${nodeName}`;
  const toPod = new PassThrough();
  const fromPod = new PassThrough();
  let socket: { close(): void } | undefined;
  try {
    const opened = await withinDeadline(
      new PortForward(config, true).portForward('kube-system', `kube-apiserver-${nodeName}`, [port], fromPod, null, toPod),
      deadlineMs,
      `${what}: no port-forward within ${deadlineMs} ms`,
    );
    socket = typeof opened === 'function' ? (opened() ?? undefined) : opened;
  } catch (error) {
    // The WebSocket's error event (an ErrorEvent, not an Error) says what the upgrade was answered.
    const message = isRecord(error) && typeof error.message === 'string' ? error.message : String(error);
    if (/\b404\b/.test(message)) return undefined;
    const refused = /\b(401|403)\b/.exec(message)?.[1];
    if (refused) throw new WorkloadClusterAccessDeniedError(Number(refused), `${what}: the workload API answered ${refused}`, { cause: error });
    throw new WorkloadClusterUnavailableError('ConnectionDown', `${what}: unable to dial to kube-apiserver: ${message}`, { cause: error });
  }
  const tls = tlsConnect({ socket: Duplex.from({ readable: fromPod, writable: toPod }), rejectUnauthorized: false });
  try {
    await handshake(tls, deadlineMs, what);
    const certificate = peerChain(tls).find((c) => c.subject?.CN === KUBE_APISERVER_CN);
    if (!certificate) throw new WorkloadClusterUnavailableError('ConnectionDown', `${what}: couldn't get peer certificate with cn="${KUBE_APISERVER_CN}"`);
    return `${new Date(certificate.valid_to).toISOString().slice(0, 19)}Z`;
  } finally {
    tls.destroy();
    toPod.end();
    socket?.close();
  }
}
