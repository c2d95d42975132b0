import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { secureStoreDir } from './data-dir.js';
import { type DynaliteResponse, type DynaliteThreadData, type DynaliteThreadMessage, dynaliteThreadMessageSchema } from './dynalite-thread-protocol.js';
import { type SendToStore, ThreadRequestHandler } from './dynalite-transport.js';
import { startThread } from './thread-entry.js';

/** What a DynamoDBClient needs to reach the embedded store: spread it into the client's config. */
export interface EmbeddedDynamoDbClientConfig {
  /** Nominal: it only names the Host header. */
  endpoint: string;
  /** Requests go to the store's thread as messages (ADR 0116). */
  requestHandler: ThreadRequestHandler;
}

/** The same store over its Unix socket (ADR 0042): what another process's client would use. */
export interface EmbeddedDynamoDbSocketClientConfig {
  endpoint: string;
  /** NodeHttpHandler options with an agent that connects to the socket (one agent per client). */
  requestHandler: { httpAgent: Agent };
}

export interface EmbeddedDynamoDb {
  /** The Unix domain socket dynalite listens on, in a fresh 0700 directory; no TCP port is open. */
  socketPath: string;
  /** A client config for this process: requests cross to the store's thread as messages. */
  clientConfig(): EmbeddedDynamoDbClientConfig;
  /** The store thread's V8 heap in use, after a full GC when the process runs with --expose-gc (ADR 0042's leak test). */
  heapUsedBytes(): Promise<number>;
  /** A client config over the socket (its own agent: destroying one client leaves the others' sockets alone). */
  socketClientConfig(): EmbeddedDynamoDbSocketClientConfig;
  close(): Promise<void>;
}

/** sun_path holds 108 bytes on Linux (104 on macOS), the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;
const NOMINAL_ENDPOINT = 'http://localhost';

/**
 * dynalite, in a thread of this process (ADR 0116), persisted under `<data-dir>/dynamodb` (LevelDB): the DynamoDB the
 * production adapter talks to in embedded mode. `persist: false` keeps it in memory (benchmarks).
 *
 * It listens on no TCP port (ADR 0042): dynalite has no authentication, so a loopback port would
 * hand every Secret in the table to any local process or browser page. It listens on a Unix
 * domain socket in a directory made by mkdtemp (mode 0700, so only this user can connect), removed
 * on close; `clientConfig()` gives the AWS SDK an HTTP agent that connects there.
 */
export async function startEmbeddedDynamoDb(dataDir: string, options: { persist?: boolean } = {}): Promise<EmbeddedDynamoDb> {
  const persist = options.persist ?? true;
  const path = join(dataDir, 'dynamodb');
  if (persist) {
    await mkdir(path, { recursive: true, mode: 0o700 });
    await secureStoreDir(path);
  }
  const socketDir = await mkdtemp(join(tmpdir(), 'capless-db-'));
  const socketPath = join(socketDir, 'db.sock');
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    await rm(socketDir, { recursive: true, force: true });
    throw new Error(`the embedded DynamoDB socket path is too long for a Unix socket (${socketPath}): set TMPDIR to a shorter directory`);
  }

  const thread = startThread('dynalite-thread', { socketPath, ...(persist ? { path } : {}) } satisfies DynaliteThreadData);
  const link = new StoreThreadLink(thread);
  try {
    const started = await link.lifecycle();
    if (started.type !== 'listening') throw new Error(started.type === 'failed' ? started.error : 'the embedded DynamoDB thread did not start');
  } catch (error) {
    await thread.terminate();
    await rm(socketDir, { recursive: true, force: true });
    throw error;
  }

  return {
    socketPath,
    clientConfig: () => ({ endpoint: NOMINAL_ENDPOINT, requestHandler: new ThreadRequestHandler((request) => link.send(request)) }),
    heapUsedBytes: () => link.heapUsedBytes(),
    socketClientConfig: () => ({ endpoint: NOMINAL_ENDPOINT, requestHandler: { httpAgent: unixSocketAgent(socketPath) } }),
    async close() {
      // LevelDB is closed by the server's close; the thread is ended after it, not during it.
      const closed = link.lifecycle().catch(() => undefined);
      thread.postMessage('close');
      await closed;
      await thread.terminate();
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}

/** A keep-alive HTTP agent whose every connection is to `socketPath`, whatever host the URL names. */
function unixSocketAgent(socketPath: string): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets: 50 });
  // Returning the socket is enough: the agent hands a returned stream to the request itself.
  agent.createConnection = (): Duplex => createConnection({ path: socketPath });
  return agent;
}

type Lifecycle = Exclude<DynaliteThreadMessage, DynaliteResponse | { type: 'heap' }>;

/** The main thread's end of the store thread's port: request/response by id, and its lifecycle messages in order. */
class StoreThreadLink {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: DynaliteResponse) => void; reject: (e: Error) => void }>();
  private readonly lifecycleWaiters: Array<{ resolve: (m: Lifecycle) => void; reject: (e: Error) => void }> = [];
  private readonly heapWaiters: Array<{ resolve: (bytes: number) => void; reject: (e: Error) => void }> = [];

  constructor(private readonly thread: Worker) {
    thread.on('message', (raw: unknown) => {
      const parsed = dynaliteThreadMessageSchema.safeParse(raw);
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'response') {
        this.pending.get(message.id)?.resolve(message);
        this.pending.delete(message.id);
      } else if (message.type === 'heap') this.heapWaiters.shift()?.resolve(message.usedBytes);
      else this.lifecycleWaiters.shift()?.resolve(message);
    });
    const fail = (error: Error) => {
      for (const waiting of [...this.pending.values(), ...this.lifecycleWaiters.splice(0), ...this.heapWaiters.splice(0)]) waiting.reject(error);
      this.pending.clear();
    };
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`the embedded DynamoDB thread exited with code ${code}`)));
  }

  /** The next lifecycle message: listening or failed after start, closed after close. */
  lifecycle(): Promise<Lifecycle> {
    return new Promise((resolve, reject) => this.lifecycleWaiters.push({ resolve, reject }));
  }

  heapUsedBytes(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.heapWaiters.push({ resolve, reject });
      this.thread.postMessage('heap');
    });
  }

  readonly send: SendToStore = (request) =>
    new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.thread.postMessage({ type: 'request', id, ...request });
    });
}
