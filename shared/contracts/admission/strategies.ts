/**
 * Per-kind admission strategy: schema, defaults, validation. Each is typed by its schema and
 * erased behind `AdmissionStrategy` so admission can pick one by group/kind.
 */

import type { z } from 'zod';
import { defaultCluster, defaultMachine, defaultMachineDeployment, defaultMachineSet } from '../defaulting/core.js';
import { defaultKubeadmConfig, defaultKubeadmConfigTemplate, defaultKubeadmControlPlane } from '../defaulting/kubeadm.js';
import { defaultNamespace } from '../defaulting/namespace.js';
import { defaultSecret } from '../defaulting/secret.js';
import type { KubeObject } from '../object.js';
import { kubeadmConfigSchema, kubeadmConfigTemplateSchema } from '../schemas/bootstrap/kubeadm-config.js';
import { schemaFor } from '../schemas/catalog.js';
import { kubeadmControlPlaneSchema } from '../schemas/controlplane/kubeadm-control-plane.js';
import { clusterSchema } from '../schemas/core/cluster.js';
import { clusterClassSchema } from '../schemas/core/cluster-class.js';
import { machineSchema } from '../schemas/core/machine.js';
import { machineDeploymentSchema } from '../schemas/core/machine-deployment.js';
import { machineDrainRuleSchema } from '../schemas/core/machine-drain-rule.js';
import { machineHealthCheckSchema } from '../schemas/core/machine-health-check.js';
import { machineSetSchema } from '../schemas/core/machine-set.js';
import { namespaceSchema } from '../schemas/corev1/namespace.js';
import { secretSchema } from '../schemas/corev1/secret.js';
import { BOOTSTRAP_GROUP, CLUSTER_GROUP, CONTROL_PLANE_GROUP, CORE_GROUP, IPAM_GROUP } from '../schemas/groups.js';
import { inClusterIPPoolSchema } from '../schemas/ipam/in-cluster-ip-pool.js';
import { ipAddressClaimSchema, ipAddressSchema } from '../schemas/ipam/ip-address.js';
import type { ValidationContext } from '../validation/context.js';
import { validateClusterClass } from '../validation/cluster-class.js';
import { validateCluster, validateMachine, validateMachineDeployment, validateMachineSet } from '../validation/core.js';
import type { FieldError } from '../validation/field-error.js';
import { validateInClusterIPPool, validateIPAddress, validateIPAddressClaim } from '../validation/ipam.js';
import { validateKubeadmControlPlane } from '../validation/kubeadm-control-plane.js';
import { validateMachineHealthCheck } from '../validation/machine-health-check.js';
import { validateMachineDrainRule } from '../validation/machine-drain-rule.js';
import { validateExtensionConfig } from '../validation/extension-config.js';
import { extensionConfigSchema } from '../schemas/runtime/extension-config.js';
import { RUNTIME_GROUP } from '../schemas/groups.js';
import { crdSchemaErrors } from './crd-schema-check.js';
import { fieldErrorsFromZod } from './zod-issues.js';

export type StrategyResult = { ok: true; object: KubeObject } | { ok: false; errors: FieldError[] };

export interface AdmissionStrategy {
  /** Schema check only (status writes, stored objects). */
  parse(input: unknown): StrategyResult;
  /**
   * Schema check, defaults, the CRD's schema (unless `checkCrdSchema` is false: a request in an
   * older version is checked against that version's schema by the API server, which capless does
   * not vendor), then validation.
   */
  admit(input: unknown, ctx: ValidationContext, checkCrdSchema?: boolean): StrategyResult;
}

interface KindStrategy<T extends KubeObject> {
  schema: z.ZodType<T>;
  defaults?: (obj: T) => T;
  validate?: (obj: T, ctx: ValidationContext) => FieldError[];
}

function erase<T extends KubeObject>(kind: KindStrategy<T>): AdmissionStrategy {
  const parse = (input: unknown): { ok: true; object: T } | { ok: false; errors: FieldError[] } => {
    const parsed = kind.schema.safeParse(input);
    return parsed.success ? { ok: true, object: parsed.data } : { ok: false, errors: fieldErrorsFromZod(parsed.error, input) };
  };
  return {
    parse,
    admit(input, ctx, checkCrdSchema = true) {
      const parsed = parse(input);
      if (!parsed.ok) return parsed;
      const object = kind.defaults ? kind.defaults(parsed.object) : parsed.object;
      // The CRD's schema first, then the kind's own rules (the API server's order: schema, then validating webhooks).
      const schemaErrors = checkCrdSchema ? crdSchemaErrors(object) : [];
      if (schemaErrors.length > 0) return { ok: false, errors: schemaErrors };
      const errors = kind.validate ? kind.validate(object, ctx) : [];
      return errors.length > 0 ? { ok: false, errors } : { ok: true, object };
    },
  };
}

const STRATEGIES: ReadonlyMap<string, AdmissionStrategy> = new Map([
  [`${CORE_GROUP}/Secret`, erase({ schema: secretSchema, defaults: defaultSecret })],
  [`${CORE_GROUP}/Namespace`, erase({ schema: namespaceSchema, defaults: defaultNamespace })],
  [`${CLUSTER_GROUP}/Cluster`, erase({ schema: clusterSchema, defaults: defaultCluster, validate: validateCluster })],
  [`${CLUSTER_GROUP}/ClusterClass`, erase({ schema: clusterClassSchema, validate: validateClusterClass })],
  [`${CLUSTER_GROUP}/Machine`, erase({ schema: machineSchema, defaults: defaultMachine, validate: validateMachine })],
  [`${CLUSTER_GROUP}/MachineSet`, erase({ schema: machineSetSchema, defaults: defaultMachineSet, validate: validateMachineSet })],
  [
    `${CLUSTER_GROUP}/MachineDeployment`,
    erase({ schema: machineDeploymentSchema, defaults: defaultMachineDeployment, validate: validateMachineDeployment }),
  ],
  [`${BOOTSTRAP_GROUP}/KubeadmConfig`, erase({ schema: kubeadmConfigSchema, defaults: defaultKubeadmConfig })],
  [`${BOOTSTRAP_GROUP}/KubeadmConfigTemplate`, erase({ schema: kubeadmConfigTemplateSchema, defaults: defaultKubeadmConfigTemplate })],
  [
    `${CONTROL_PLANE_GROUP}/KubeadmControlPlane`,
    erase({ schema: kubeadmControlPlaneSchema, defaults: defaultKubeadmControlPlane, validate: validateKubeadmControlPlane }),
  ],
  [`${CLUSTER_GROUP}/MachineHealthCheck`, erase({ schema: machineHealthCheckSchema, validate: validateMachineHealthCheck })],
  [`${CLUSTER_GROUP}/MachineDrainRule`, erase({ schema: machineDrainRuleSchema, validate: validateMachineDrainRule })],
  [`${IPAM_GROUP}/IPAddressClaim`, erase({ schema: ipAddressClaimSchema, validate: validateIPAddressClaim })],
  [`${IPAM_GROUP}/IPAddress`, erase({ schema: ipAddressSchema, validate: validateIPAddress })],
  [`${IPAM_GROUP}/InClusterIPPool`, erase({ schema: inClusterIPPoolSchema, validate: validateInClusterIPPool })],
  [`${IPAM_GROUP}/GlobalInClusterIPPool`, erase({ schema: inClusterIPPoolSchema, validate: validateInClusterIPPool })],
  [`${RUNTIME_GROUP}/ExtensionConfig`, erase({ schema: extensionConfigSchema, validate: validateExtensionConfig })],
]);

/** The strategy of a kind; kinds without defaults or rules just get their schema checked. */
export function strategyFor(group: string, kind: string): AdmissionStrategy {
  const found = STRATEGIES.get(`${group}/${kind}`);
  if (found) return found;
  return erase({ schema: schemaFor(group, kind) });
}
