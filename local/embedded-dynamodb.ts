import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { z } from 'zod';
import { secureStoreDir } from './data-dir.js';
import { type DynaliteThreadData, dynaliteThreadMessageSchema } from './dynalite-thread-protocol.js';
import { startThread } from './thread-entry.js';

/** What a DynamoDBClient needs to reach the embedded store: spread it into the client's config. */
export interface EmbeddedDynamoDbClientConfig {
  /** Nominal: it only names the Host header; every connection goes to the Unix socket. */
  endpoint: string;
  /** NodeHttpHandler options with an agent that connects to the socket (one agent per client). */
  requestHandler: { httpAgent: Agent };
}

export interface EmbeddedDynamoDb {
  /** The Unix domain socket dynalite listens on, in a fresh 0700 directory; no TCP port is open. */
  socketPath: string;
  /** A fresh client config (its own agent: destroying one client leaves the others' sockets alone). */
  clientConfig(): EmbeddedDynamoDbClientConfig;
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
  const next = () =>
    new Promise<z.infer<typeof dynaliteThreadMessageSchema>>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the embedded DynamoDB thread exited with code ${code}`));
      thread.once('error', reject);
      thread.once('exit', onExit);
      thread.once('message', (message: unknown) => {
        thread.off('error', reject);
        thread.off('exit', onExit);
        const parsed = dynaliteThreadMessageSchema.safeParse(message);
        if (parsed.success) resolve(parsed.data);
        else reject(new Error(`the embedded DynamoDB thread said something unexpected: ${parsed.error.message}`));
      });
    });
  try {
    const started = await next();
    if (started.type !== 'listening') throw new Error(started.type === 'failed' ? started.error : 'the embedded DynamoDB thread did not start');
  } catch (error) {
    await thread.terminate();
    await rm(socketDir, { recursive: true, force: true });
    throw error;
  }

  return {
    socketPath,
    clientConfig: () => ({ endpoint: NOMINAL_ENDPOINT, requestHandler: { httpAgent: unixSocketAgent(socketPath) } }),
    async close() {
      // LevelDB is closed by the server's close; the thread is ended after it, not during it.
      const closed = next().catch(() => undefined);
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
