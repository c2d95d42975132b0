/**
 * The workload cluster's etcd, asked as Cluster API's etcd client asks it
 * (controlplane/kubeadm/internal/etcd, through a port-forwarding dialer): a port-forward to the
 * etcd static Pod `kube-system/etcd-<node>` on its client port, TLS with a client certificate of
 * the cluster's etcd CA (the server's certificate is verified against that CA; its names are the
 * Node's, not the forwarded address), and etcd's JSON gateway over it (`POST
 * /v3/cluster/member/list`, `/v3/cluster/member/remove`, `/v3/maintenance/status`,
 * `/v3/maintenance/transfer-leadership`, `/v3/maintenance/alarm`; member IDs are uint64 written as decimal strings). No
 * etcd Pod is undefined; a member already removed is done.
 */
import { request } from 'node:http';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { isRecord } from '../../contracts/json.js';
import { type EtcdAlarm, type EtcdMember, type EtcdStatus, WorkloadClusterUnavailableError } from '../../ports/workload-cluster.js';
import { forwardPort, handshake } from './port-forward.js';

/** kubeadm's etcd client port. */
export const ETCD_CLIENT_PORT = 2379;
/** gRPC's NotFound, which etcd answers for a member it does not have. */
const GRPC_NOT_FOUND = 5;

export interface EtcdCredentials {
  caPem: string;
  certPem: string;
  keyPem: string;
}

interface GatewayAnswer {
  status: number;
  body: unknown;
}

function post(socket: TLSSocket, path: string, body: unknown, deadlineMs: number, what: string): Promise<GatewayAnswer> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request({ createConnection: () => socket, method: 'POST', path, host: 'localhost', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: { error: text } });
        }
      });
      res.on('error', reject);
    });
    req.setTimeout(deadlineMs, () => req.destroy(new WorkloadClusterUnavailableError('ConnectionDown', `${what}: no answer within ${deadlineMs} ms`)));
    req.on('error', (error) => reject(error instanceof WorkloadClusterUnavailableError ? error : new WorkloadClusterUnavailableError('ConnectionDown', `${what}: ${error.message}`, { cause: error })));
    req.end(payload);
  });
}

/** One call of the JSON gateway through the etcd Pod on the Node; undefined when it runs none. */
async function call(config: KubeConfig, nodeName: string, credentials: EtcdCredentials, path: string, body: unknown, deadlineMs: number, what: string): Promise<GatewayAnswer | undefined> {
  const forwarded = await forwardPort(config, { namespace: 'kube-system', name: `etcd-${nodeName}` }, ETCD_CLIENT_PORT, deadlineMs, what);
  if (!forwarded) return undefined;
  const socket = tlsConnect({
    socket: forwarded.stream,
    ca: credentials.caPem,
    cert: credentials.certPem,
    key: credentials.keyPem,
    servername: 'localhost',
    // The chain is verified against the etcd CA; the names are the Node's, not this forwarded address.
    checkServerIdentity: () => undefined,
  });
  try {
    await handshake(socket, deadlineMs, what);
    return await post(socket, path, body, deadlineMs, what);
  } finally {
    socket.destroy();
    forwarded.close();
  }
}

function failure(answer: GatewayAnswer, what: string): WorkloadClusterUnavailableError {
  const message = isRecord(answer.body) && typeof answer.body.message === 'string' ? answer.body.message : isRecord(answer.body) && typeof answer.body.error === 'string' ? answer.body.error : `HTTP ${answer.status}`;
  return new WorkloadClusterUnavailableError('ConnectionDown', `${what}: ${message}`);
}

/** A uint64 as the gateway writes it (a decimal string; a number from older gateways). */
function memberIdAt(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

export async function listEtcdMembers(config: KubeConfig, nodeName: string, credentials: EtcdCredentials, deadlineMs: number): Promise<EtcdMember[] | undefined> {
  const what = `listing the etcd members through Node ${nodeName}`;
  const answer = await call(config, nodeName, credentials, '/v3/cluster/member/list', {}, deadlineMs, what);
  if (!answer) return undefined;
  if (answer.status !== 200 || !isRecord(answer.body)) throw failure(answer, what);
  const members = Array.isArray(answer.body.members) ? answer.body.members : [];
  return members.flatMap((m) => {
    const id = isRecord(m) ? memberIdAt(m.ID) : undefined;
    return isRecord(m) && id ? [{ id, name: typeof m.name === 'string' ? m.name : '', ...(m.isLearner === true ? { isLearner: true } : {}) }] : [];
  });
}

export async function removeEtcdMember(config: KubeConfig, nodeName: string, credentials: EtcdCredentials, memberId: string, deadlineMs: number): Promise<void> {
  const what = `removing etcd member ${memberId} through Node ${nodeName}`;
  const answer = await call(config, nodeName, credentials, '/v3/cluster/member/remove', { ID: memberId }, deadlineMs, what);
  if (!answer) throw new WorkloadClusterUnavailableError('ConnectionDown', `${what}: Node ${nodeName} runs no etcd Pod`);
  const notFound = isRecord(answer.body) && answer.body.code === GRPC_NOT_FOUND;
  if (answer.status !== 200 && !notFound) throw failure(answer, what);
}

export async function etcdStatus(config: KubeConfig, nodeName: string, credentials: EtcdCredentials, deadlineMs: number): Promise<EtcdStatus | undefined> {
  const what = `reading the etcd status through Node ${nodeName}`;
  const answer = await call(config, nodeName, credentials, '/v3/maintenance/status', {}, deadlineMs, what);
  if (!answer) return undefined;
  if (answer.status !== 200 || !isRecord(answer.body)) throw failure(answer, what);
  const memberId = isRecord(answer.body.header) ? memberIdAt(answer.body.header.member_id) : undefined;
  if (!memberId) throw new WorkloadClusterUnavailableError('ConnectionDown', `${what}: the answer names no member`);
  return { memberId, leaderId: memberIdAt(answer.body.leader) ?? '0' };
}

/** etcdserverpb.AlarmType by number, for a gateway that writes enums as numbers. */
const ALARM_TYPES = ['NONE', 'NOSPACE', 'CORRUPT'];

function alarmTypeAt(value: unknown): string | undefined {
  if (typeof value === 'number') return ALARM_TYPES[value] ?? String(value);
  return typeof value === 'string' ? value : undefined;
}

/** The alarms raised on the cluster's members (an AlarmRequest with action GET); NONE entries left out. */
export async function listEtcdAlarms(config: KubeConfig, nodeName: string, credentials: EtcdCredentials, deadlineMs: number): Promise<EtcdAlarm[] | undefined> {
  const what = `listing the etcd alarms through Node ${nodeName}`;
  const answer = await call(config, nodeName, credentials, '/v3/maintenance/alarm', { action: 'GET', memberID: '0', alarm: 'NONE' }, deadlineMs, what);
  if (!answer) return undefined;
  if (answer.status !== 200 || !isRecord(answer.body)) throw failure(answer, what);
  const alarms = Array.isArray(answer.body.alarms) ? answer.body.alarms : [];
  return alarms.flatMap((a) => {
    const memberId = isRecord(a) ? memberIdAt(a.memberID) : undefined;
    const alarm = isRecord(a) ? (alarmTypeAt(a.alarm) ?? 'NONE') : 'NONE';
    return memberId && alarm !== 'NONE' ? [{ memberId, alarm }] : [];
  });
}

/** Asked of the leader's etcd Pod: etcd answers "etcdserver: not leader" through any other. */
export async function moveEtcdLeader(config: KubeConfig, nodeName: string, credentials: EtcdCredentials, targetMemberId: string, deadlineMs: number): Promise<void> {
  const what = `moving etcd leadership to member ${targetMemberId} through Node ${nodeName}`;
  const answer = await call(config, nodeName, credentials, '/v3/maintenance/transfer-leadership', { targetID: targetMemberId }, deadlineMs, what);
  if (!answer) throw new WorkloadClusterUnavailableError('ConnectionDown', `${what}: Node ${nodeName} runs no etcd Pod`);
  if (answer.status !== 200) throw failure(answer, what);
}
