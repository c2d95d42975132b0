/**
 * An HTTPS Runtime Extension server for tests, with its own CA (made by the real openssl): the
 * CA signs a serving certificate for 127.0.0.1; `caBundle` is the CA in the ExtensionConfig's
 * base64 form. Every request is recorded; `respond` decides each answer.
 */

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RecordedCall {
  method: string;
  /** Path with query, as received. */
  url: string;
  body: string;
}

export interface ExtensionAnswer {
  status?: number;
  body: string;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
}

export interface TestExtensionServer {
  url: string;
  /** base64 of the CA's PEM: ExtensionConfig `spec.clientConfig.caBundle`. */
  caBundle: string;
  caPem: string;
  calls: RecordedCall[];
  respond: (call: RecordedCall) => ExtensionAnswer;
  close(): Promise<void>;
}

export async function makeCa(dir: string): Promise<{ caPem: string; key: string; cert: string }> {
  const f = (name: string) => join(dir, name);
  await run('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.crt'), '-days', '1', '-subj', '/CN=test-extension-ca']);
  await run('openssl', ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', f('tls.key'), '-out', f('tls.csr'), '-subj', '/CN=127.0.0.1']);
  await writeFile(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  await run('openssl', ['x509', '-req', '-in', f('tls.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('tls.crt'), '-days', '1', '-extfile', f('ext.cnf')]);
  return { caPem: await readFile(f('ca.crt'), 'utf8'), key: await readFile(f('tls.key'), 'utf8'), cert: await readFile(f('tls.crt'), 'utf8') };
}

export async function startExtensionServer(respond: (call: RecordedCall) => ExtensionAnswer): Promise<TestExtensionServer> {
  const dir = await mkdtemp(join(tmpdir(), 'capless-ext-'));
  const { caPem, key, cert } = await makeCa(dir);
  const calls: RecordedCall[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const state = { respond };
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const call = { method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') };
      calls.push(call);
      const answer = state.respond(call);
      const send = () => {
        if (res.writableEnded || res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(answer.body);
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, answer.delayMs);
        timers.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const result: TestExtensionServer = {
    url: `https://127.0.0.1:${port}`,
    caBundle: Buffer.from(caPem).toString('base64'),
    caPem,
    calls,
    get respond() {
      return state.respond;
    },
    set respond(next) {
      state.respond = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
  return result;
}

/** A discovery response announcing these handlers. */
export function discoveryAnswer(handlers: readonly Record<string, unknown>[]): ExtensionAnswer {
  return { body: JSON.stringify({ apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', kind: 'DiscoveryResponse', status: 'Success', handlers }) };
}

export function handler(name: string, hook: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook }, ...extra };
}
