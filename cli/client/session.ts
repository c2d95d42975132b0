import type { CliIo } from '../io/cli-io.js';
import { ApiClient } from './api-client.js';
import { loadConnection } from './connection.js';
import { ResourceTypes } from './resource-types.js';

/** parseArgs options every API command takes. */
export const CONNECTION_OPTIONS = {
  kubeconfig: { type: 'string' },
  'data-dir': { type: 'string' },
  namespace: { type: 'string', short: 'n' },
} as const;

/** A connected client, its discovery, and the namespace to use when neither flag nor manifest names one. */
export interface Session {
  client: ApiClient;
  types: ResourceTypes;
  namespace: string;
  /** True when `-n` was given (it then overrides nothing in manifests, like kubectl it must agree). */
  namespaceFromFlag: boolean;
}

export async function openSession(values: { kubeconfig?: string | undefined; 'data-dir'?: string | undefined; namespace?: string | undefined }, io: CliIo): Promise<Session> {
  const connection = await loadConnection(
    { ...(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {}), ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}) },
    io,
  );
  const client = new ApiClient(connection);
  return { client, types: new ResourceTypes(client), namespace: values.namespace ?? connection.namespace, namespaceFromFlag: values.namespace !== undefined };
}
