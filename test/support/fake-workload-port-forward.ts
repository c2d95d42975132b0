/**
 * The fake workload API's port-forward (`…/pods/<pod>/portforward?ports=N`, WebSocket,
 * `v4.channel.k8s.io`), as kube-apiserver serves it: channel 0 carries the data, channel 1 errors,
 * and the first frame of each starts with the port (two bytes, little endian). The fake forwards
 * to a local TLS server standing in for the Pod's kube-apiserver, serving a certificate with CN
 * `kube-apiserver` and the validity the test asked for. A Pod the API does not hold is a 404.
 */
import { connect as netConnect, type AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { WebSocketServer } from 'ws';
import { generateServingCertificate } from '../../shared/pki/index.js';

const PORT_FORWARD = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/portforward$/;

export interface KubeApiServerStandIn {
  /** The certificate's NotAfter, RFC 3339 (whole seconds). */
  notAfter: string;
  server: TlsServer;
}

/** A TLS server presenting a kube-apiserver certificate valid for `validityDays` from `now`. */
export async function startKubeApiServerStandIn(now: Date, validityDays: number): Promise<KubeApiServerStandIn> {
  const serving = await generateServingCertificate({ hosts: ['kube-apiserver', '127.0.0.1'], now, validityDays });
  const server = createTlsServer({ key: serving.keyPem, cert: serving.certPem }, (socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const notAfter = `${new Date(now.getTime() + validityDays * 86_400_000).toISOString().slice(0, 19)}Z`;
  return { notAfter, server };
}

/** Answers an upgrade request when it is a port-forward: true when it took it. */
export function servePortForward(
  wss: WebSocketServer,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: (namespace: string, pod: string) => TlsServer | undefined,
): boolean {
  const url = new URL(req.url ?? '/', 'https://fake');
  const match = PORT_FORWARD.exec(url.pathname);
  if (!match) return false;
  const server = target(match[1] ?? '', match[2] ?? '');
  const port = Number(url.searchParams.get('ports'));
  if (!server) {
    socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
    return true;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    const address = server.address() as AddressInfo;
    const upstream = netConnect(address.port, '127.0.0.1');
    const portBytes = Buffer.from([port & 0xff, (port >> 8) & 0xff]);
    ws.send(Buffer.concat([Buffer.from([0]), portBytes]));
    ws.send(Buffer.concat([Buffer.from([1]), portBytes]));
    upstream.on('data', (data: Buffer) => ws.send(Buffer.concat([Buffer.from([0]), data])));
    upstream.on('close', () => ws.close());
    upstream.on('error', () => ws.close());
    ws.on('message', (data: Buffer) => {
      if (data[0] === 0) upstream.write(data.subarray(1));
    });
    ws.on('close', () => upstream.destroy());
  });
  return true;
}

/** The WebSocket server (no listener of its own) choosing kube-apiserver's channel protocol. */
export function portForwardSockets(): WebSocketServer {
  return new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has('v4.channel.k8s.io') ? 'v4.channel.k8s.io' : false) });
}
