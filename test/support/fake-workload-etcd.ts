/**
 * etcd stand-ins behind the fake workload API's port-forward: one HTTPS server per etcd static
 * Pod (`kube-system/etcd-<node>`), all answering for one member list, as kubeadm's stacked etcd
 * does. Like etcd with `--client-cert-auth`, a server presents a certificate of the cluster's etcd
 * CA and accepts only clients with one; it serves the JSON gateway's member list and remove (IDs
 * as decimal strings; an unknown member is gRPC NotFound, code 5).
 */
import { createServer, type Server } from 'node:https';
import { x509 } from '../../shared/pki/crypto-provider.js';
import type { CertificateKeyPair } from '../../shared/pki/index.js';
import { generateKeyPair, pemWithNewline, privateKeyPem, signingAlgorithmFor } from '../../shared/pki/key-algorithm.js';
import { importPrivateKeyPem } from '../../shared/pki/private-key-import.js';

export interface FakeEtcdMember {
  ID: string;
  name: string;
}

/** A serving certificate of the etcd CA, for the names kubeadm gives etcd's (localhost among them). */
async function etcdServingCertificate(ca: CertificateKeyPair, now: Date): Promise<CertificateKeyPair> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await importPrivateKeyPem(ca.keyPem);
  const keys = await generateKeyPair('ECDSA-P256');
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: '0a',
    subject: 'CN=etcd',
    issuer: caCert.subjectName,
    notBefore: caCert.notBefore,
    notAfter: new Date(now.getTime() + 365 * 86_400_000),
    signingAlgorithm: signingAlgorithmFor(caKey.algorithm),
    publicKey: keys.publicKey,
    signingKey: caKey.key,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'localhost' }, { type: 'ip', value: '127.0.0.1' }]),
    ],
  });
  return { certPem: pemWithNewline(certificate.toString('pem')), keyPem: await privateKeyPem(keys.privateKey, 'ECDSA-P256') };
}

function readBody(req: import('node:http').IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch {
        resolve({});
      }
    });
  });
}

/** An etcd Pod's client port over the shared `members`. */
export async function startEtcdStandIn(ca: CertificateKeyPair, members: FakeEtcdMember[], now: Date): Promise<Server> {
  const serving = await etcdServingCertificate(ca, now);
  const server = createServer({ key: serving.keyPem, cert: serving.certPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true }, async (req, res) => {
    const body = await readBody(req);
    const answer = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.method === 'POST' && req.url === '/v3/cluster/member/list') return answer(200, { header: { cluster_id: '1' }, members });
    if (req.method === 'POST' && req.url === '/v3/cluster/member/remove') {
      const id = typeof body === 'object' && body !== null && 'ID' in body ? String(body.ID) : '';
      const index = members.findIndex((m) => m.ID === id);
      if (index < 0) return answer(404, { error: 'etcdserver: member not found', code: 5, message: 'etcdserver: member not found' });
      members.splice(index, 1);
      return answer(200, { header: { cluster_id: '1' }, members });
    }
    return answer(404, { error: 'Not Found', code: 5, message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
