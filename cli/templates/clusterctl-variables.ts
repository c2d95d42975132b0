/**
 * clusterctl's template variables (drone/envsubst as clusterctl uses it): `${VAR}`,
 * `${VAR:=default}` and `${VAR:-default}` (the default used when VAR is unset or empty), `$$` for a
 * literal `$`. A variable with neither a value nor a default is an error naming every such
 * variable, as `clusterctl generate cluster` reports them.
 */

export class MissingVariablesError extends Error {
  constructor(readonly names: readonly string[]) {
    super(`value for variables [${names.join(', ')}] is not set. Please set the value using os environment variables or the clusterctl config file`);
  }
}

const PLACEHOLDER = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[=-])([^}]*))?\}/g;

/** The variables a template uses, in order of first use, and whether each has a default. */
export function templateVariables(text: string): Array<{ name: string; hasDefault: boolean }> {
  const seen = new Map<string, boolean>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1];
    if (!name) continue;
    seen.set(name, (seen.get(name) ?? false) || match[2] !== undefined);
  }
  return [...seen].map(([name, hasDefault]) => ({ name, hasDefault }));
}

/** Substitutes every placeholder; throws MissingVariablesError when a variable has no value and no default. */
export function substituteVariables(text: string, values: Readonly<Record<string, string | undefined>>): string {
  const missing = new Set<string>();
  const out = text.replace(PLACEHOLDER, (whole, name: string | undefined, operator: string | undefined, fallback: string | undefined) => {
    if (whole === '$$') return '$';
    if (!name) return whole;
    const value = values[name];
    if (operator === undefined) {
      if (value === undefined) missing.add(name);
      return value ?? '';
    }
    // `:=`/`:-` also replace an empty value; `=`/`-` only an unset one.
    const useDefault = operator.startsWith(':') ? value === undefined || value === '' : value === undefined;
    return useDefault ? (fallback ?? '') : (value ?? '');
  });
  if (missing.size > 0) throw new MissingVariablesError([...missing].sort());
  return out;
}

export interface GenerateOptions {
  clusterName: string;
  kubernetesVersion?: string;
  controlPlaneMachineCount?: number;
  workerMachineCount?: number;
  targetNamespace?: string;
}

/** clusterctl's own variables from its flags, over the environment (flags win, as in clusterctl). */
export function clusterctlValues(options: GenerateOptions, env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return {
    ...env,
    CLUSTER_NAME: options.clusterName,
    NAMESPACE: options.targetNamespace ?? env.NAMESPACE ?? 'default',
    ...(options.kubernetesVersion !== undefined ? { KUBERNETES_VERSION: options.kubernetesVersion } : {}),
    CONTROL_PLANE_MACHINE_COUNT: String(options.controlPlaneMachineCount ?? env.CONTROL_PLANE_MACHINE_COUNT ?? 1),
    WORKER_MACHINE_COUNT: String(options.workerMachineCount ?? env.WORKER_MACHINE_COUNT ?? 0),
  };
}

export function generateCluster(template: string, options: GenerateOptions, env: Readonly<Record<string, string | undefined>>): string {
  return substituteVariables(template, clusterctlValues(options, env));
}
