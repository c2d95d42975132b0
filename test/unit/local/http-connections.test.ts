import { mkdtemp, rm } from 'node:fs/promises';
import { type Socket, connect as connectPlain } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../../local/http-server.js';
import { selfSignedCert } from '../../support/self-signed-cert.js';

/**
 * What the embedded server does with a connection before and between requests, on raw sockets:
 * Go clients (kubectl, clusterctl, controller-runtime) dial connections they may never use and
 * keep them idle; the server must close those without writing anything, as Go's net/http does,
 * and still answer a request its parser refuses with a Kubernetes Status.
 */
const TIMEOUTS = { keepAliveMs: 300, headersMs: 300, checkIntervalMs: 100 };
const OK_BODY = '{"kind":"Status","status":"Success"}';

type Server = Awaited<ReturnType<typeof listen>>;
let plain: Server;
let tls: Server;
let certDir: string;

beforeAll(async () => {
  certDir = await mkdtemp(join(tmpdir(), 'capless-http-connections-'));
  const handler = async () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: OK_BODY });
  plain = await listen(handler, { host: '127.0.0.1', port: 0, timeouts: TIMEOUTS });
  tls = await listen(handler, { host: '127.0.0.1', port: 0, tls: await selfSignedCert(certDir), timeouts: TIMEOUTS });
});

afterAll(async () => {
  await plain?.close();
  await tls?.close();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

/** Opens a connection, writes `sent`, and collects everything the server writes until it closes. */
async function exchange(server: Server, sent: string): Promise<string> {
  const url = new URL(server.url);
  const port = Number(url.port);
  const socket: Socket =
    url.protocol === 'https:' ? connectTls({ host: '127.0.0.1', port, rejectUnauthorized: false }) : connectPlain({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => resolve());
    socket.once('error', reject);
  });
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  if (sent !== '') socket.write(sent);
  await closed;
  return Buffer.concat(received).toString('latin1');
}

const GET = 'GET /api HTTP/1.1\r\nHost: capless\r\n\r\n';
const statusLines = (reply: string) => reply.split('\r\n').filter((line) => line.startsWith('HTTP/1.1 '));

describe.each([
  ['plain HTTP', () => plain],
  ['TLS', () => tls],
])('the embedded server over %s', (_, server) => {
  it.each([
    ['a connection that never sends a request', ''],
    ['a request whose headers never end', 'GET /api HTTP/1.1\r\nHost: capless\r\n'],
    ['a request line cut short', 'GET /ap'],
  ])('closes %s without writing anything once the headers timeout passes', async (_, sent) => {
    expect(await exchange(server(), sent)).toBe('');
  });

  it('answers a request and closes the connection once it has been idle for the keep-alive timeout, writing nothing more', async () => {
    const reply = await exchange(server(), GET);
    expect(statusLines(reply)).toEqual(['HTTP/1.1 200 OK']);
    expect(reply.endsWith(OK_BODY)).toBe(true);
  });

  it.each([
    ['a malformed request line', 'NOT HTTP AT ALL\r\n\r\n', 400, 'Bad Request', 'the request could not be parsed as HTTP'],
    ['headers over the size limit', `GET /api HTTP/1.1\r\nHost: capless\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'Request Header Fields Too Large', 'the request line or headers are too large'],
  ])('answers %s with a Kubernetes Status and closes', async (_, sent, code, reason, message) => {
    const reply = await exchange(server(), sent);
    expect(statusLines(reply)).toEqual([`HTTP/1.1 ${code} ${reason}`]);
    const body: unknown = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code });
  });
});
