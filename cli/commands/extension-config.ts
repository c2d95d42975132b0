/**
 * `capless extension-config [--name NAME] [--extension EXT] [--server URL] [--data-dir DIR]`:
 * a ready-to-apply ExtensionConfig (YAML) for one of capless's hosted Runtime Extensions (ADR
 * 0100): its HTTPS URL with the path secret, and the caBundle that verifies the server. Apply it
 * to capless itself (`capless apply -f -`) or to a Cluster API management cluster.
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { builtinExtensions } from '../../functions/hooks/builtin-extensions.js';
import { hostedExtensionUrl } from '../../functions/hooks/hosted-extensions.js';
import { HOOKS_PATH_SECRET_FILE } from '../../local/data-dir.js';
import { DNS1123_LABEL } from '../../shared/contracts/schemas/common/names.js';
import { loadConnection } from '../client/connection.js';
import { defineCommand } from '../io/define-command.js';
import { UsageError } from '../io/usage-error.js';

const DEFAULT_EXTENSION = 'upgrade-gate';

export const extensionConfigCommand = defineCommand(
  'extension-config',
  'print an ExtensionConfig for a hosted extension (extension-config [--name NAME] [--extension upgrade-gate] [--server URL])',
  async (args, io) => {
    const { values, positionals } = parseArgs({
      args,
      options: { kubeconfig: { type: 'string' }, 'data-dir': { type: 'string' }, name: { type: 'string' }, extension: { type: 'string' }, server: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0) throw new UsageError('usage: capless extension-config [--name NAME] [--extension EXT] [--server URL] [--data-dir DIR]');
    const extension = values.extension ?? DEFAULT_EXTENSION;
    const known = builtinExtensions().map((e) => e.name);
    if (!known.includes(extension)) throw new UsageError(`unknown hosted extension ${JSON.stringify(extension)}: one of ${known.join(', ')}`);
    const name = values.name ?? extension;
    if (!DNS1123_LABEL.test(name) || name.length > 63) throw new UsageError(`--name ${JSON.stringify(name)} must be a DNS-1123 label (Cluster API's ExtensionConfig name rule)`);
    const dataDir = values['data-dir'] ?? '.capless';
    const connection = await loadConnection({ ...(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {}), dataDir }, io);
    const server = values.server ?? connection.server;
    if (!server.startsWith('https://')) throw new UsageError(`the server ${server} is not HTTPS: Cluster API calls extensions over HTTPS only (run 'capless up', which serves TLS)`);
    let secret: string;
    try {
      secret = (await readFile(join(dataDir, HOOKS_PATH_SECRET_FILE), 'utf8')).trim();
    } catch {
      throw new UsageError(`no hosted extensions path secret in ${dataDir} (run 'capless up' first, or pass --data-dir)`);
    }
    const clientConfig = {
      url: hostedExtensionUrl(server, secret, extension),
      ...(connection.ca && values.server === undefined ? { caBundle: Buffer.from(connection.ca).toString('base64') } : {}),
    };
    const document = { apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name }, spec: { clientConfig } };
    io.stdout.write(stringify(document));
    return 0;
  },
);
