import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defineCommand } from '../io/define-command.js';
import { UsageError } from '../io/usage-error.js';
import { generateCluster, MissingVariablesError } from '../templates/clusterctl-variables.js';

const USAGE =
  'usage: capless generate cluster NAME --from FILE [--kubernetes-version V] [--control-plane-machine-count N] [--worker-machine-count N] [--target-namespace NS]';

function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number, not ${JSON.stringify(value)}`);
  return n;
}

/** `capless generate cluster NAME --from FILE …`: a clusterctl template with its `${VAR}` placeholders filled, on stdout. */
export const generateCommand = defineCommand('generate', 'generate a cluster manifest from a clusterctl template (generate cluster NAME --from FILE)', async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: {
      from: { type: 'string' },
      'kubernetes-version': { type: 'string' },
      'control-plane-machine-count': { type: 'string' },
      'worker-machine-count': { type: 'string' },
      'target-namespace': { type: 'string', short: 'n' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [what, name, ...rest] = positionals;
  if (what !== 'cluster' || !name || rest.length > 0 || !values.from) throw new UsageError(USAGE);
  const template = await readFile(resolve(io.cwd, values.from), 'utf8');
  try {
    const controlPlaneMachineCount = count(values['control-plane-machine-count'], '--control-plane-machine-count');
    const workerMachineCount = count(values['worker-machine-count'], '--worker-machine-count');
    const output = generateCluster(
      template,
      {
        clusterName: name,
        ...(values['kubernetes-version'] !== undefined ? { kubernetesVersion: values['kubernetes-version'] } : {}),
        ...(controlPlaneMachineCount !== undefined ? { controlPlaneMachineCount } : {}),
        ...(workerMachineCount !== undefined ? { workerMachineCount } : {}),
        ...(values['target-namespace'] !== undefined ? { targetNamespace: values['target-namespace'] } : {}),
      },
      io.env,
    );
    io.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    return 0;
  } catch (error) {
    if (error instanceof MissingVariablesError) {
      io.stderr.write(`Error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
});
