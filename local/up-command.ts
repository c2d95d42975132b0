import { parseArgs } from 'node:util';
import type { CliCommand } from '../cli/main.js';
import { SdkAwsCloudFactory } from '../shared/adapters/aws/aws-cloud/sdk-aws-cloud.js';
import { InMemoryLoadBalancers } from '../shared/adapters/memory/load-balancers/in-memory-load-balancers.js';
import { consoleLogger } from '../shared/ports/logger.js';
import { startControlPlane } from './control-plane.js';
import { EMBEDDED_STORE_KINDS, isEmbeddedStoreKind } from './embedded-store-kind.js';

/** `capless up`: the whole control plane in this process (what `npm start` runs). */
export const upCommand: CliCommand = {
  name: 'up',
  summary: 'run the embedded control plane (API, store, queues, reconcilers) in this process',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: 'string', default: '8080' },
        'data-dir': { type: 'string', default: '.capless' },
        endpoint: { type: 'string' },
        // The embedded store (ADR 0131): file (default for a new data dir) or dynalite.
        store: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        'log-level': { type: 'string', default: 'info' },
        // The AWS provider's load balancers go to ELBv2 (AWS_ENDPOINT_URL[_ELASTIC_LOAD_BALANCING_V2] like
        // every client); this opt-in simulates them in this process, for emulator builds that serve EC2 but not ELBv2.
        'simulated-load-balancers': { type: 'boolean', default: false },
        // Reconcilers in this many worker threads (ADR 0115); 0 keeps them on the main thread.
        workers: { type: 'string', default: '0' },
      },
      strict: true,
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got ${values.port}`);
    const workers = Number(values.workers);
    if (!Number.isInteger(workers) || workers < 0) throw new Error(`--workers must be an integer ≥ 0, got ${values.workers}`);
    const store = values.store;
    if (store !== undefined && !isEmbeddedStoreKind(store)) throw new Error(`--store must be ${EMBEDDED_STORE_KINDS.join(' or ')}, got ${store}`);
    if (store !== undefined && values.endpoint) throw new Error('--store picks the embedded store; it cannot be given with --endpoint');
    const level = values['log-level'];
    if (level !== 'debug' && level !== 'info' && level !== 'warn' && level !== 'error') throw new Error('--log-level must be debug, info, warn or error');
    const logger = consoleLogger(level);
    // Everything this process creates from now on (LevelDB's tables and logs, kubeconfig, keys) is
    // for this user only: 0600 files, 0700 directories, whatever the caller's umask. The data dir
    // itself is narrowed to 0700 and the store's older files to 0600 as the control plane starts.
    process.umask(0o077);
    const plane = await startControlPlane({
      dataDir: values['data-dir'],
      port,
      host: values.host,
      tls: true,
      ...(values.endpoint ? { endpoint: values.endpoint } : {}),
      ...(store ? { embeddedStore: store } : {}),
      ...(workers > 0
        ? { workers, workerData: { logLevel: level, simulatedLoadBalancers: values['simulated-load-balancers'] } }
        : values['simulated-load-balancers']
          ? { awsCloud: new SdkAwsCloudFactory({ loadBalancers: (region) => new InMemoryLoadBalancers(region) }) }
          : {}),
      logger,
    });
    process.stdout.write(`capless is up: API ${plane.url}, kubeconfig ${plane.kubeconfigPath}${workers > 0 ? `, ${workers} reconcile worker threads` : ''}\n`);
    process.stdout.write(`  export KUBECONFIG=${plane.kubeconfigPath}\n`);
    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info('stopping', { signal });
        void plane.stop().then(resolve);
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    return 0;
  },
};
