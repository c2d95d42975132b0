import { stringAt } from '../../shared/contracts/json.js';
import { resourcePath } from '../client/resource-types.js';
import type { Session } from '../client/session.js';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../io/usage-error.js';

/** `capless get kubeconfig CLUSTER`: the workload cluster's admin kubeconfig, from Secret `<cluster>-kubeconfig` key `value`. */
export async function printKubeconfig(session: Session, cluster: string, io: CliIo): Promise<number> {
  const secrets = await session.types.forKind('v1', 'Secret');
  const secretName = `${cluster}-kubeconfig`;
  const secret = await session.client.get(resourcePath(secrets, session.namespace, secretName));
  const value = stringAt(secret, 'data', 'value');
  if (value === undefined) throw new UsageError(`secret ${session.namespace}/${secretName} has no data.value (is the cluster's control plane initialized?)`);
  const text = Buffer.from(value, 'base64').toString('utf8');
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  return 0;
}
