import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Admission } from '../../functions/api/admission-port.js';
import { type ApiDeps, handleApiRequest } from '../../functions/api/api.js';
import { bearerTokenAuthenticator } from '../../functions/api/auth.js';
import { pathAdmission } from '../../functions/api/path-admission.js';
import { builtinProviderLookup } from '../../shared/contracts/providers/builtin-lookup.js';
import type { ApiRequest, ApiResponse } from '../../functions/api/http.js';
import { KindRegistry } from '../../shared/contracts/kinds.js';
import { silentLogger } from '../../shared/ports/logger.js';
import type { ChangeSource, ObjectStore } from '../../shared/ports/object-store.js';
import { WatchHub, type WatchLimits } from '../../functions/api/watch/watch-hub.js';
import { ChangeLog } from '../../shared/watch/change-log.js';
import { MemoryObjectStore } from '../../shared/store/memory-store.js';
import { listen } from '../../local/http-server.js';
import { stringify } from 'yaml';
import { selfSignedCert } from './self-signed-cert.js';

/** A running management API for tests: real HTTP, a real kubeconfig, an in-memory store. */
export interface TestApi {
  url: string;
  token: string;
  kubeconfigPath: string;
  /** The directory holding the kubeconfig (removed by close). */
  dataDir: string;
  store: ObjectStore;
  /** The watch hub, when the store reports changes. */
  watches?: WatchHub;
  /** The same handler the HTTP server serves, for in-process calls. */
  handle(request: ApiRequest): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  store?: ObjectStore;
  admission?: Admission;
  /** Principal may read Secrets (default true: the embedded admin token can). */
  canReadSecrets?: boolean;
  /** Principal may create, change and delete Secrets (default true). */
  canWriteSecrets?: boolean;
  /** Watch limits for the API's watch hub (served whenever the store reports its changes). */
  watchLimits?: Partial<WatchLimits>;
  /** Serve HTTPS with a fresh self-signed certificate (default true: kubectl sends bearer tokens only over TLS). */
  tls?: boolean;
}

/** Anything that can start a management API for a test; the CLI tests take one so the integrator can swap in the full control plane. */
export type TestApiFactory = (options?: TestApiOptions) => Promise<TestApi>;

export const TEST_TOKEN = 'capless-test-token-0123456789abcdef0123456789';

/** Serves handleApiRequest over local/http-server.ts on 127.0.0.1 with a bearer token and writes a kubeconfig. */
export const startTestApi: TestApiFactory = async (options = {}) => {
  const store = options.store ?? new MemoryObjectStore();
  const kinds = new KindRegistry();
  const watches = isChangeSource(store) ? new WatchHub(new ChangeLog(store), options.watchLimits) : undefined;
  const deps: ApiDeps = {
    store,
    kinds,
    admission: options.admission ?? pathAdmission(kinds, builtinProviderLookup),
    authenticate: bearerTokenAuthenticator([
      { token: TEST_TOKEN, principal: { name: 'test-admin', canReadSecrets: options.canReadSecrets ?? true, canWriteSecrets: options.canWriteSecrets ?? true } },
    ]),
    logger: silentLogger,
    contracts: builtinProviderLookup,
    ...(watches ? { watches } : {}),
  };
  const handle = (request: ApiRequest) => handleApiRequest(request, deps);
  const dataDir = await mkdtemp(join(tmpdir(), 'capless-api-'));
  const tls = options.tls === false ? undefined : await selfSignedCert(dataDir);
  const server = await listen(handle, { host: '127.0.0.1', port: 0, ...(tls ? { tls } : {}) });
  const kubeconfigPath = join(dataDir, 'kubeconfig');
  await writeFile(kubeconfigPath, kubeconfigText(server.url, TEST_TOKEN, tls?.cert), { mode: 0o600 });
  return {
    url: server.url,
    token: TEST_TOKEN,
    kubeconfigPath,
    dataDir,
    store,
    ...(watches ? { watches } : {}),
    handle,
    async close() {
      watches?.close();
      watches?.log.close();
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

/** A kubeconfig for the test API: the serving certificate as CA over TLS, insecure-skip-tls-verify over plain HTTP. */
export function kubeconfigText(server: string, token: string, caCert?: string): string {
  const cluster = caCert ? { server, 'certificate-authority-data': Buffer.from(caCert).toString('base64') } : { server, 'insecure-skip-tls-verify': true };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'capless', cluster }],
    users: [{ name: 'capless-admin', user: { token } }],
    contexts: [{ name: 'capless', context: { cluster: 'capless', user: 'capless-admin', namespace: 'default' } }],
    'current-context': 'capless',
  });
}

function isChangeSource(store: ObjectStore): store is ObjectStore & ChangeSource {
  return 'onChange' in store && typeof store.onChange === 'function';
}
