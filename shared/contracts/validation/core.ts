/** Validation of the cluster.x-k8s.io kinds (after C14 `core/webhooks/admission/*.go`). */

import type { IntOrString } from '../schemas/common/names.js';
import type { Cluster } from '../schemas/core/cluster.js';
import type { Machine } from '../schemas/core/machine.js';
import type { MachineDeployment } from '../schemas/core/machine-deployment.js';
import type { MachineSet } from '../schemas/core/machine-set.js';
import type { MachineSpec } from '../schemas/core/machine-spec.js';
import type { ValidationContext } from './context.js';
import { type FieldError, invalid, required } from './field-error.js';
import { isKubernetesVersion, VERSION_DETAIL } from './kubernetes-version.js';
import { isEmptySelector, selectorMatches } from './label-selector.js';
import { validateServedReference } from './references.js';

export function validateVersion(version: string | undefined, field: string): FieldError[] {
  if (version === undefined || isKubernetesVersion(version)) return [];
  return [invalid(field, version, VERSION_DETAIL)];
}

export function validateMachineSpec(spec: MachineSpec, field: string, ctx: ValidationContext): FieldError[] {
  const errors: FieldError[] = [];
  if (!spec.bootstrap.configRef && spec.bootstrap.dataSecretName === undefined) {
    errors.push(required(`${field}.bootstrap`, 'expected either spec.bootstrap.dataSecretName or spec.bootstrap.configRef to be populated'));
  }
  errors.push(
    ...validateServedReference(spec.bootstrap.configRef, `${field}.bootstrap.configRef`, ctx),
    ...validateServedReference(spec.infrastructureRef, `${field}.infrastructureRef`, ctx),
    ...validateVersion(spec.version, `${field}.version`),
  );
  return errors;
}

export function validateMachine(machine: Machine, ctx: ValidationContext): FieldError[] {
  return validateMachineSpec(machine.spec, 'spec', ctx);
}

export function validateCluster(cluster: Cluster, ctx: ValidationContext): FieldError[] {
  const spec = cluster.spec;
  if (!spec) return [];
  return [
    ...validateServedReference(spec.infrastructureRef, 'spec.infrastructureRef', ctx),
    ...validateServedReference(spec.controlPlaneRef, 'spec.controlPlaneRef', ctx),
    ...validateVersion(spec.topology?.version, 'spec.topology.version'),
  ];
}

function validateSetLike(spec: MachineSet['spec'] | MachineDeployment['spec'], ctx: ValidationContext): FieldError[] {
  const errors: FieldError[] = [];
  const labels = spec.template.metadata?.labels ?? {};
  if (isEmptySelector(spec.selector)) {
    errors.push(invalid('spec.selector', spec.selector, 'empty selector is not valid for MachineSet/MachineDeployment'));
  } else if (!selectorMatches(spec.selector, labels)) {
    errors.push(invalid('spec.selector', spec.selector, '`selector` does not match template `labels`'));
  }
  if (spec.template.spec.clusterName !== spec.clusterName) {
    errors.push(invalid('spec.template.spec.clusterName', spec.template.spec.clusterName, 'must match spec.clusterName'));
  }
  errors.push(...validateMachineSpec(spec.template.spec, 'spec.template.spec', ctx));
  return errors;
}

export function validateMachineSet(set: MachineSet, ctx: ValidationContext): FieldError[] {
  return validateSetLike(set.spec, ctx);
}

/** An absolute value or a percentage of `replicas`, as intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(value: IntOrString | undefined, replicas: number, roundUp: boolean): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const percent = Number(value.replace('%', ''));
  if (!value.endsWith('%')) return percent;
  const scaled = (percent * replicas) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

export function validateMachineDeployment(md: MachineDeployment, ctx: ValidationContext): FieldError[] {
  const errors = validateSetLike(md.spec, ctx);
  const strategy = md.spec.rollout?.strategy;
  const rolling = strategy?.rollingUpdate;
  if (strategy?.type === 'RollingUpdate' && rolling) {
    const replicas = md.spec.replicas ?? 1;
    const surge = scaledValue(rolling.maxSurge, replicas, true);
    const unavailable = scaledValue(rolling.maxUnavailable, replicas, false);
    if (surge === 0 && unavailable === 0) {
      errors.push(invalid('spec.rollout.strategy.rollingUpdate', rolling, 'maxSurge and maxUnavailable cannot both be 0'));
    }
  }
  return errors;
}
