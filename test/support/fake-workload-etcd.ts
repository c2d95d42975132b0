/**
 * etcd stand-ins behind the fake workload API's port-forward: one HTTPS server per etcd static
 * Pod (`kube-system/etcd-<node>`), all answering for one member list and one leader, as kubeadm's
 * stacked etcd does. Like etcd with `--client-cert-auth`, a server presents a certificate of the
 * cluster's etcd CA and accepts only clients with one; it serves the JSON gateway's member list
 * and remove (IDs as decimal strings; an unknown member is gRPC NotFound, code 5), the member's
 * status (its ID and the leader's: the first member until leadership moves) and the leadership
 * transfer, which only the leader's Pod accepts (gRPC FailedPrecondition, code 9, otherwise), and
 * the alarm list (an AlarmRequest with action GET).
 */
import { createServer, type Server } from 'node:https';
import { isRecord } from '../../shared/contracts/json.js';
import { x509 } from '../../shared/pki/crypto-provider.js';
import type { CertificateKeyPair } from '../../shared/pki/index.js';
import { generateKeyPair, pemWithNewline, privateKeyPem, signingAlgorithmFor } from '../../shared/pki/key-algorithm.js';
import { importPrivateKeyPem } from '../../shared/pki/private-key-import.js';

export interface FakeEtcdMember {
  ID: string;
  name: string;
  isLearner?: boolean;
}

/** The one etcd every stand-in of a cluster answers for. */
export interface FakeEtcd {
  members: FakeEtcdMember[];
  /** The leader's ID; the first member when unset or removed. */
  leader?: string;
  /** Alarms raised, as etcd's AlarmMember (the type by name, as the gateway writes enums). */
  alarms: { memberID: string; alarm: string }[];
}

function leaderOf(etcd: FakeEtcd): string | undefined {
  if (!etcd.members.some((m) => m.ID === etcd.leader)) etcd.leader = etcd.members[0]?.ID;
  return etcd.leader;
}

function idIn(body: unknown, field: string): string {
  return isRecord(body) && body[field] !== undefined ? String(body[field]) : '';
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

type Answer = [status: number, payload: unknown];

function grpcError(status: number, code: number, message: string): Answer {
  return [status, { error: message, code, message }];
}

/** etcd's answer to one gateway call made through the etcd Pod on `nodeName`. */
function answerFor(etcd: FakeEtcd, nodeName: string, path: string, body: unknown): Answer {
  const { members } = etcd;
  const self = members.find((m) => m.name === nodeName)?.ID ?? '0';
  switch (path) {
    case '/v3/cluster/member/list':
      return [200, { header: { cluster_id: '1', member_id: self }, members }];
    case '/v3/cluster/member/remove': {
      const index = members.findIndex((m) => m.ID === idIn(body, 'ID'));
      if (index < 0) return grpcError(404, 5, 'etcdserver: member not found');
      members.splice(index, 1);
      return [200, { header: { cluster_id: '1', member_id: self }, members }];
    }
    case '/v3/maintenance/status':
      return [200, { header: { cluster_id: '1', member_id: self }, version: '3.5.21', leader: leaderOf(etcd) ?? '0' }];
    case '/v3/maintenance/transfer-leadership': {
      if (leaderOf(etcd) !== self) return grpcError(400, 9, 'etcdserver: not leader');
      const target = idIn(body, 'targetID');
      if (!members.some((m) => m.ID === target)) return grpcError(400, 9, 'etcdserver: bad leader transferee');
      etcd.leader = target;
      return [200, { header: { cluster_id: '1', member_id: self } }];
    }
    case '/v3/maintenance/alarm': {
      if (!isRecord(body) || (body.action !== 'GET' && body.action !== 0 && body.action !== undefined)) return grpcError(400, 3, 'only action GET is served here');
      const alarms = etcd.alarms.filter((a) => members.some((m) => m.ID === a.memberID));
      return [200, { header: { cluster_id: '1', member_id: self }, ...(alarms.length > 0 ? { alarms } : {}) }];
    }
    default:
      return grpcError(404, 5, 'Not Found');
  }
}

/** The client port of the etcd Pod on `nodeName`, over the shared `etcd`. */
export async function startEtcdStandIn(ca: CertificateKeyPair, etcd: FakeEtcd, nodeName: string, now: Date): Promise<Server> {
  const serving = await etcdServingCertificate(ca, now);
  const server = createServer({ key: serving.keyPem, cert: serving.certPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true }, async (req, res) => {
    const body = await readBody(req);
    const [status, payload] = req.method === 'POST' ? answerFor(etcd, nodeName, req.url ?? '', body) : grpcError(405, 12, 'Method Not Allowed');
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(payload));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
