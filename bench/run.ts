import { writeFile } from 'node:fs/promises';
import { parseBenchArgs, USAGE } from './args.js';
import { formatReport } from './report.js';
import { runBenchmark } from './run-benchmark.js';
import { runBenchmarkWithFaults } from './faults/run-with-faults.js';

/** `npm run bench -- [flags]`: one benchmark run; prints the table and writes the JSON. */
async function main(argv: readonly string[]): Promise<number> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const options = parseBenchArgs(argv);
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const log = (line: string) => console.error(`[bench] ${line}`);
  log(`${options.clusters} clusters × (${options.controlPlaneReplicas} CP + ${options.workerReplicas} worker machines), store ${options.store}, ${options.reconcileWorkers} reconcile worker threads${options.topology ? ', through a ClusterClass' : ''}`);
  const report = options.faults ? await runBenchmarkWithFaults(options, options.faults, log) : await runBenchmark(options, log);
  console.log(formatReport(report));
  if (options.jsonFile) {
    await writeFile(options.jsonFile, `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${options.jsonFile}`);
  }
  if (report.faults && (report.faults.duplicatedObjects > 0 || report.faults.lostUpdates > 0)) return 1;
  return report.completed ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
