import type { CliCommand } from '../main.js';

/** A command known by name and summary; its module (and what it imports) loads only when it runs. */
export interface LazyCommand {
  name: string;
  summary: string;
  load(): Promise<CliCommand>;
}

/**
 * Every `capless` command. Modules load on use, so `capless get` never loads the embedded
 * control plane (dynalite, the AWS SDK) that `capless up` needs.
 */
export const COMMANDS: readonly LazyCommand[] = [
  { name: 'up', summary: 'run the embedded control plane (API, store, queues, reconcilers) in this process', load: async () => (await import('../../local/up-command.js')).upCommand },
  { name: 'apply', summary: 'create or update objects from YAML manifests (-f FILE|DIR|-)', load: async () => (await import('./apply.js')).applyCommand },
  { name: 'get', summary: 'list or show objects (get KIND [NAME]; get kubeconfig CLUSTER)', load: async () => (await import('./get.js')).getCommand },
  { name: 'describe', summary: 'show a cluster as a tree (describe cluster NAME [--show-conditions])', load: async () => (await import('./describe.js')).describeCommand },
  { name: 'delete', summary: 'delete objects (delete -f FILE | KIND NAME [--wait])', load: async () => (await import('./delete.js')).deleteCommand },
  { name: 'wait', summary: 'wait for a condition, a field value, or deletion (wait KIND/NAME --for=...)', load: async () => (await import('./wait.js')).waitCommand },
  { name: 'init', summary: 'record the clusterctl Provider inventory (init [--provider TYPE/NAME:VERSION=PATH]...)', load: async () => (await import('./init.js')).initCommand },
  { name: 'generate', summary: 'generate a cluster manifest from a clusterctl template (generate cluster NAME --from FILE)', load: async () => (await import('./generate.js')).generateCommand },
  { name: 'extension-config', summary: 'print an ExtensionConfig for a hosted extension (extension-config [--name NAME] [--extension upgrade-gate] [--server URL])', load: async () => (await import('./extension-config.js')).extensionConfigCommand },
  { name: 'upgrade', summary: "plan provider upgrades with clusterctl's rules (upgrade plan)", load: async () => (await import('./upgrade.js')).upgradeCommand },
];
