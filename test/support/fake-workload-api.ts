/**
 * A small Kubernetes API over HTTPS standing in for a workload cluster's kube-apiserver: a serving
 * certificate and a client CA made with shared/pki, clients authenticated by a certificate the CA
 * signed or by its bearer token (401 otherwise, as kube-apiserver answers), discovery for the
 * kinds ClusterResourceSets and drains use (fake-workload-routes.ts), and generic storage keyed by
 * path: list (limit/continue, field selectors, across namespaces), create, get, replace,
 * merge-patch and apply-patch, delete, the Pods' eviction subresource with PodDisruptionBudgets
 * (fake-workload-eviction.ts) and port-forwards to kube-apiserver stand-ins
 * (fake-workload-port-forward.ts) and etcd stand-ins (fake-workload-etcd.ts). The test registers Nodes the way kubelet would.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server, type Server as EtcdServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { stringify } from 'yaml';
import { isRecord } from '../../shared/contracts/json.js';
import { buildAdminKubeconfig, type CertificateKeyPair, generateCertificateAuthority, generateServingCertificate, issueClientCertificate } from '../../shared/pki/index.js';
import { mergePatch } from '../../shared/workload-cluster/in-memory-workload-objects.js';
import { answerEviction, type StoredItem } from './fake-workload-eviction.js';
import { type KubeApiServerStandIn, portForwardSockets, servePortForward, startKubeApiServerStandIn } from './fake-workload-port-forward.js';
import { listOf, type Route, routeOf } from './fake-workload-routes.js';
import { type FakeEtcd, type FakeEtcdMember, startEtcdStandIn } from './fake-workload-etcd.js';

export interface FakeWorkloadApi {
  url: string;
  /** An admin kubeconfig with a client certificate the API's CA signed (what `<cluster>-kubeconfig` holds). */
  kubeconfig: string;
  /** A kubeconfig with the API's bearer token instead of a client certificate. */
  tokenKubeconfig: string;
  /** A kubeconfig whose client certificate comes from another CA: every request is refused with 401. */
  untrustedKubeconfig: string;
  /** Registers or replaces a Node, as kubelet does. */
  putNode(node: { name: string; providerID: string; ready: boolean; kubeletVersion?: string; volumesAttached?: string[] }): void;
  /** Stores (or replaces) an object in a collection (e.g. `/api/v1/namespaces/default/pods`), as another client of the API would. */
  put(collection: string, object: StoredItem): void;
  /** The stored object at an API path (e.g. `/api/v1/namespaces/kube-system/configmaps/x`). */
  get(path: string): StoredItem | undefined;
  /** Every stored object, by path. */
  paths(): string[];
  /**
   * Runs a kube-apiserver static Pod on the Node (`kube-system/kube-apiserver-<node>`) whose
   * serving certificate is valid for `validityDays` from the API's `now`, reachable through the
   * port-forward; resolves with its NotAfter (RFC 3339).
   */
  putKubeApiServer(nodeName: string, validityDays: number): Promise<string>;
  /** The CA of the cluster's etcd (what `<cluster>-etcd` holds): etcd presents its certificates and accepts its clients'. */
  etcdCa: CertificateKeyPair;
  /** Runs an etcd static Pod on the Node (`kube-system/etcd-<node>`), a member of the one etcd every such Pod answers for. */
  putEtcdMember(nodeName: string): Promise<void>;
  /** etcd raises `alarm` on the member of Node `nodeName`. */
  raiseEtcdAlarm(nodeName: string, alarm: string): void;
  /** The member of Node `nodeName` is a learner, not yet promoted. */
  makeEtcdLearner(nodeName: string): void;
  /** The etcd members, as the etcd Pods list them. */
  etcdMembers(): FakeEtcdMember[];
  /** The etcd leader's member ID. */
  etcdLeader(): string | undefined;
  /** The next `count` authenticated requests are answered with this status code (an overloaded or forbidding API server). */
  failNext(code: number, count?: number): void;
  /** Requests served, by method and path (for "was this asked at all" checks). */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startFakeWorkloadApi(options: { now?: Date } = {}): Promise<FakeWorkloadApi> {
  const now = options.now ?? new Date();
  const serving = await generateServingCertificate({ hosts: ['127.0.0.1', 'localhost'], now });
  const clientCa = await generateCertificateAuthority({ now, commonName: 'workload-ca', algorithm: 'ECDSA-P256' });
  const client = await issueClientCertificate({ ca: clientCa, now, algorithm: 'ECDSA-P256' });
  const otherCa = await generateCertificateAuthority({ now, commonName: 'someone-else', algorithm: 'ECDSA-P256' });
  const stranger = await issueClientCertificate({ ca: otherCa, now, algorithm: 'ECDSA-P256' });

  const etcdCa = await generateCertificateAuthority({ now, commonName: 'etcd-ca', algorithm: 'ECDSA-P256' });
  const etcd: FakeEtcd = { members: [], alarms: [] };
  const etcdServers = new Map<string, EtcdServer>();

  const token = randomBytes(16).toString('hex');
  const collections = new Map<string, Map<string, StoredItem>>();
  const requests: string[] = [];
  const failures: number[] = [];
  let resourceVersion = 1;

  const server: Server = createServer({ key: serving.keyPem, cert: serving.certPem, ca: [clientCa.certPem], requestCert: true, rejectUnauthorized: false }, (req, res) => {
    void serve(req, res).catch((error: unknown) => send(res, 500, status(500, 'InternalError', String(error))));
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://fake');
    requests.push(`${req.method} ${url.pathname}`);
    const socket = req.socket as TLSSocket;
    if (!socket.authorized && req.headers.authorization !== `Bearer ${token}`) return send(res, 401, status(401, 'Unauthorized', 'Unauthorized'));
    const body = await readBody(req);
    const failure = failures.shift();
    if (failure !== undefined) return send(res, failure, status(failure, failure === 403 ? 'Forbidden' : 'ServiceUnavailable', `injected ${failure}`));
    const [code, reply] = answer(routeOf(url.pathname), req.method ?? 'GET', body, url, req.headers['content-type'] ?? '');
    return send(res, code, reply);
  }

  function answer(route: Route, method: string, body: unknown, url: URL, contentType: string): [number, unknown] {
    if (route.discovery) return [200, route.discovery];
    if (route.acrossNamespaces && method === 'GET') return [200, listOf(acrossNamespaces(route.acrossNamespaces), url.searchParams)];
    if (route.eviction && route.collection && route.name && method === 'POST') return evict(route.collection, route.name);
    if (!route.collection) return [404, status(404, 'NotFound', `the server could not find the requested resource (${url.pathname})`)];
    const items = collectionAt(route.collection);
    return route.name ? onItem(items, route.name, method, body, contentType) : onCollection(items, method, body, url.searchParams);
  }

  function onCollection(items: Map<string, StoredItem>, method: string, body: unknown, query: URLSearchParams): [number, unknown] {
    if (method === 'GET') return [200, listOf(items, query)];
    if (method !== 'POST') return [405, status(405, 'MethodNotAllowed', method)];
    if (!isStorable(body)) return [400, status(400, 'BadRequest', 'the body is not an object with metadata.name')];
    if (items.has(body.metadata.name)) return [409, status(409, 'AlreadyExists', `${body.metadata.name} already exists`)];
    return [201, store(items, body)];
  }

  function onItem(items: Map<string, StoredItem>, name: string, method: string, body: unknown, contentType: string): [number, unknown] {
    const current = items.get(name);
    if (method === 'PUT' || method === 'PATCH') return onWrite(items, name, current, method, body, contentType);
    if (method !== 'GET' && method !== 'DELETE') return [405, status(405, 'MethodNotAllowed', method)];
    if (!current) return [404, status(404, 'NotFound', `${name} not found`)];
    if (method === 'GET') return [200, current];
    items.delete(name);
    return [200, status(200, '', 'deleted')];
  }

  function onWrite(items: Map<string, StoredItem>, name: string, current: StoredItem | undefined, method: string, body: unknown, contentType: string): [number, unknown] {
    if (!current) return contentType.startsWith('application/apply-patch') ? write(items, body) : [404, status(404, 'NotFound', `${name} not found`)];
    if (staleResourceVersion(current, body)) return [409, status(409, 'Conflict', 'the object has been modified')];
    const patched = contentType.startsWith('application/strategic-merge-patch') ? strategicMergePatch(current, body) : mergePatch(current, body);
    return write(items, method === 'PUT' ? body : patched, current);
  }

  function write(items: Map<string, StoredItem>, next: unknown, current?: StoredItem): [number, unknown] {
    if (!isStorable(next)) return [400, status(400, 'BadRequest', 'the result is not an object with metadata.name')];
    return [current ? 200 : 201, store(items, next, current)];
  }

  /** Every namespace's objects of a namespaced resource (`/api/v1/pods`): one list, as kube-apiserver gives it. */
  function acrossNamespaces(suffix: string): Map<string, StoredItem> {
    const all = new Map<string, StoredItem>();
    for (const [path, items] of collections) {
      if (!path.endsWith(`/${suffix}`) || !path.includes('/namespaces/')) continue;
      for (const [name, item] of items) all.set(`${path}/${name}`, item);
    }
    return all;
  }

  /** The Pods' eviction subresource (fake-workload-eviction.ts); an eviction granted deletes the Pod at once. */
  function evict(podsPath: string, name: string): [number, unknown] {
    const pods = collectionAt(podsPath);
    const pod = pods.get(name);
    if (!pod) return [404, status(404, 'NotFound', `pods "${name}" not found`)];
    const namespace = podsPath.split('/')[4] ?? 'default';
    const budgets = [...collectionAt(`/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets`).values()];
    const answer = answerEviction(pod, namespace, collectionAt('/api/v1/namespaces').get(namespace), budgets);
    if (answer.code < 300) pods.delete(name);
    return [answer.code, answer.body];
  }

  function collectionAt(path: string): Map<string, StoredItem> {
    let items = collections.get(path);
    if (!items) {
      items = new Map();
      collections.set(path, items);
    }
    return items;
  }

  function store(items: Map<string, StoredItem>, object: StoredItem, current?: StoredItem): StoredItem {
    resourceVersion += 1;
    const stored: StoredItem = {
      ...object,
      metadata: {
        ...object.metadata,
        uid: current?.metadata.uid ?? randomUUID(),
        creationTimestamp: current?.metadata.creationTimestamp ?? now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        resourceVersion: String(resourceVersion),
      },
    };
    items.set(stored.metadata.name, stored);
    return stored;
  }

  // Port-forwards (WebSocket upgrades) to the kube-apiserver stand-ins, by Pod.
  const standIns = new Map<string, KubeApiServerStandIn>();
  const sockets = portForwardSockets();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    requests.push(`${req.method} ${new URL(req.url ?? '/', 'https://fake').pathname}`);
    const tlsSocket = req.socket as TLSSocket;
    if (!tlsSocket.authorized && req.headers.authorization !== `Bearer ${token}`) {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const served = servePortForward(sockets, req, socket, head, (namespace, pod) =>
      collectionAt(`/api/v1/namespaces/${namespace}/pods`).has(pod) ? (standIns.get(`${namespace}/${pod}`)?.server ?? etcdServers.get(`${namespace}/${pod}`)) : undefined,
    );
    if (!served) socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `https://127.0.0.1:${port}`;
  const kubeconfigFor = (cert: { certPem: string; keyPem: string }) =>
    buildAdminKubeconfig({ clusterName: 'workload', server: url, caPem: serving.certPem, clientCertPem: cert.certPem, clientKeyPem: cert.keyPem });

  return {
    url,
    kubeconfig: kubeconfigFor(client),
    untrustedKubeconfig: kubeconfigFor(stranger),
    tokenKubeconfig: stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'workload', cluster: { server: url, 'certificate-authority-data': Buffer.from(serving.certPem).toString('base64') } }],
      users: [{ name: 'token', user: { token } }],
      contexts: [{ name: 'token@workload', context: { cluster: 'workload', user: 'token' } }],
      'current-context': 'token@workload',
    }),
    requests,
    async putKubeApiServer(nodeName, validityDays) {
      const name = `kube-apiserver-${nodeName}`;
      const standIn = await startKubeApiServerStandIn(now, validityDays);
      standIns.get(`kube-system/${name}`)?.server.close();
      standIns.set(`kube-system/${name}`, standIn);
      store(collectionAt('/api/v1/namespaces/kube-system/pods'), staticPod(name, nodeName, 'kube-apiserver'));
      return standIn.notAfter;
    },
    etcdCa,
    async putEtcdMember(nodeName) {
      const name = `etcd-${nodeName}`;
      etcdServers.get(`kube-system/${name}`)?.close();
      etcdServers.set(`kube-system/${name}`, await startEtcdStandIn(etcdCa, etcd, nodeName, now));
      etcd.members.push({ ID: String(BigInt(`0x${randomBytes(8).toString('hex')}`)), name: nodeName });
      store(collectionAt('/api/v1/namespaces/kube-system/pods'), staticPod(name, nodeName, 'etcd'));
    },
    raiseEtcdAlarm(nodeName, alarm) {
      const member = etcd.members.find((m) => m.name === nodeName);
      if (!member) throw new Error(`no etcd member on ${nodeName}`);
      etcd.alarms.push({ memberID: member.ID, alarm });
    },
    makeEtcdLearner(nodeName) {
      const member = etcd.members.find((m) => m.name === nodeName);
      if (!member) throw new Error(`no etcd member on ${nodeName}`);
      member.isLearner = true;
    },
    etcdMembers: () => etcd.members.map((m) => ({ ...m })),
    etcdLeader: () => etcd.leader ?? etcd.members[0]?.ID,
    failNext(code, count = 1) {
      for (let i = 0; i < count; i += 1) failures.push(code);
    },
    putNode(node) {
      const conditions = [{ type: 'Ready', status: node.ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'KubeletReady' }];
      store(collectionAt('/api/v1/nodes'), {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: node.name },
        spec: { providerID: node.providerID },
        status: {
          conditions,
          nodeInfo: { kubeletVersion: node.kubeletVersion ?? 'v1.33.0', operatingSystem: 'linux' },
          ...(node.volumesAttached ? { volumesAttached: node.volumesAttached.map((name) => ({ name, devicePath: '' })) } : {}),
        },
      }, collectionAt('/api/v1/nodes').get(node.name));
    },
    put(collection, object) {
      store(collectionAt(collection), object, collectionAt(collection).get(object.metadata.name));
    },
    get(path) {
      const cut = path.lastIndexOf('/');
      return collections.get(path.slice(0, cut))?.get(path.slice(cut + 1));
    },
    paths() {
      return [...collections.entries()].flatMap(([collection, items]) => [...items.keys()].map((name) => `${collection}/${name}`)).sort();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const standIn of standIns.values()) standIn.server.close();
        for (const etcd of etcdServers.values()) {
          etcd.closeAllConnections();
          etcd.close();
        }
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}


/** A kubeadm static Pod's mirror on the Node, running `component`'s image. */
function staticPod(name: string, nodeName: string, component: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'kube-system', annotations: { 'kubernetes.io/config.mirror': 'static' } },
    spec: { nodeName, containers: [{ name: component, image: `registry.k8s.io/${component}` }] },
    status: {
      phase: 'Running',
      conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({ type, status: 'True' })),
      containerStatuses: [{ name: component, ready: true, restartCount: 0, image: `registry.k8s.io/${component}`, imageID: '', state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }],
    },
  };
}

function named(value: unknown): value is Record<string, unknown> & { name: string } {
  return isRecord(value) && typeof value.name === 'string';
}

/**
 * A strategic merge patch as the API server applies it to the lists this fake serves: lists of
 * named objects (containers, volumes, env …) merged item by item on `name`, the rest as a JSON
 * merge patch.
 */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (Array.isArray(patch) && Array.isArray(target) && patch.every(named) && target.every(named)) {
    const merged: unknown[] = target.map((item) => {
      const change = patch.find((p) => p.name === item.name);
      return change ? strategicMergePatch(item, change) : item;
    });
    return [...merged, ...patch.filter((p) => !target.some((item) => item.name === p.name))];
  }
  if (!isRecord(patch)) return mergePatch<unknown>(target, patch);
  const result: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete result[field];
    else result[field] = strategicMergePatch(result[field], value);
  }
  return result;
}

/** A write naming a resourceVersion other than the stored one (optimistic concurrency). */
function staleResourceVersion(current: StoredItem, body: unknown): boolean {
  const wanted = isRecord(body) && isRecord(body.metadata) ? body.metadata.resourceVersion : undefined;
  return typeof wanted === 'string' && wanted !== current.metadata.resourceVersion;
}

function isStorable(value: unknown): value is StoredItem {
  return isRecord(value) && isRecord(value.metadata) && typeof value.metadata.name === 'string';
}

function status(code: number, reason: string, message: string): unknown {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: code < 400 ? 'Success' : 'Failure', reason, message, code };
}

function send(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
