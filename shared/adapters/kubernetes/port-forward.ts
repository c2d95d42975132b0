/**
 * A port-forward through a workload cluster's API server to a Pod's port (client-node's
 * PortForward, WebSocket `v4.channel.k8s.io`), as a Duplex stream: what Cluster API's
 * port-forwarding dialer gives its etcd client and its certificate check. No such Pod (the
 * upgrade answered 404) is undefined; refused credentials (401, 403) are access denied; anything
 * else that fails, or takes longer than the deadline, is transient.
 */
import { Duplex, PassThrough } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { type KubeConfig, PortForward } from '@kubernetes/client-node';
import { isRecord } from '../../contracts/json.js';
import { WorkloadClusterAccessDeniedError, WorkloadClusterUnavailableError } from '../../ports/workload-cluster.js';

export interface ForwardedPort {
  stream: Duplex;
  close(): void;
}

export function withinDeadline<T>(promise: Promise<T>, deadlineMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WorkloadClusterUnavailableError('ConnectionDown', message)), deadlineMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** `what` names the call in errors ("reading the certificate of kube-apiserver on Node n1"). */
export async function forwardPort(config: KubeConfig, pod: { namespace: string; name: string }, port: number, deadlineMs: number, what: string): Promise<ForwardedPort | undefined> {
  const toPod = new PassThrough();
  const fromPod = new PassThrough();
  let socket: { close(): void } | undefined;
  try {
    const opened = await withinDeadline(
      new PortForward(config, true).portForward(pod.namespace, pod.name, [port], fromPod, null, toPod),
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
    throw new WorkloadClusterUnavailableError('ConnectionDown', `${what}: unable to dial to ${pod.namespace}/${pod.name}: ${message}`, { cause: error });
  }
  return {
    stream: Duplex.from({ readable: fromPod, writable: toPod }),
    close: () => {
      toPod.end();
      socket?.close();
    },
  };
}

/** Waits for the TLS handshake over a forwarded port, within the deadline. */
export function handshake(socket: TLSSocket, deadlineMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new WorkloadClusterUnavailableError('ConnectionDown', `${what}: no TLS handshake within ${deadlineMs} ms`)), deadlineMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      resolve();
    });
    // `on`, not `once`: the socket's later errors (its stream aborted as it is destroyed) are
    // answered by the call that uses it, and must not go unhandled.
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(new WorkloadClusterUnavailableError('ConnectionDown', `${what}: TLS handshake failed: ${error.message}`, { cause: error }));
    });
  });
}
