/** InMemoryMachine phases: find the owning Machine, then bring up (or refuse to) the simulated VM. */

import { numberAt, stringAt, valueAt } from '../../../../../shared/contracts/json.js';
import { controllerOf, LABEL_CONTROL_PLANE } from '../../../../../shared/contracts/object.js';
import { readReference, referenceKey } from '../../../engine/references/object-reference.js';
import { CORE_GROUP } from '../../../../../shared/contracts/providers/builtin-providers.js';
import { inMemoryProviderID } from '../../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import type { InMemoryMachineScope } from './scope.js';
import { DEFAULT_CERTIFICATE_VALIDITY_DAYS, failureMessageOf, failureModeOf, secondsUntilReady } from './simulation.js';

export async function ownerMachinePhase(s: InMemoryMachineScope): Promise<PhaseResult> {
  const owner = controllerOf(s.object);
  const machine =
    owner?.kind === 'Machine'
      ? await s.ctx.store.get({ group: CORE_GROUP, kind: 'Machine', namespace: s.object.metadata.namespace, name: owner.name })
      : undefined;
  if (!machine) {
    s.conditions.push({ type: 'Ready', status: 'False', reason: 'WaitingForMachine', message: `no Machine controls this ${s.object.kind} yet` });
    return { stop: true };
  }
  s.machine = machine;
  return {};
}

/** Why the VM is not (yet) up, or undefined when it can come up now. */
function notYet(s: InMemoryMachineScope): PhaseResult | undefined {
  const mode = failureModeOf(s.object);
  if (mode === 'Fail') {
    s.conditions.push({ type: 'Ready', status: 'False', reason: 'ProvisioningFailed', message: failureMessageOf(s.object) });
    return { stop: true };
  }
  if (mode === 'NeverReady') {
    s.conditions.push({ type: 'Ready', status: 'False', reason: 'NeverReady', message: 'spec.failure.mode is NeverReady: the simulated VM never comes up' });
    return { stop: true };
  }
  if (s.object.spec?.providerID === inMemoryProviderID(s.object.metadata.namespace, s.object.metadata.name, s.object.kind)) return undefined;
  if (!stringAt(s.machine, 'spec', 'bootstrap', 'dataSecretName')) {
    // No timer: the Machine watch (reconciler.ts) delivers the change that sets the data secret.
    s.conditions.push({ type: 'Ready', status: 'False', reason: 'WaitingForBootstrapData', message: 'the Machine has no bootstrap data secret yet' });
    return { stop: true };
  }
  const remaining = secondsUntilReady(s.object, s.ctx.clock.now(), s.startupSeconds);
  if (remaining > 0) {
    s.conditions.push({ type: 'Ready', status: 'False', reason: 'VMProvisioning', message: `the simulated VM is up in ${remaining}s` });
    return { stop: true, requeueAfterSeconds: remaining };
  }
  return undefined;
}

/**
 * The simulated kubeadm of a control-plane Machine issues its kube-apiserver's certificate when
 * the Node first comes up, valid for its KubeadmConfig's `clusterConfiguration.
 * certificateValidityPeriodDays` (kubeadm's default, a year, without): the config is read that
 * once, for control-plane Machines only.
 */
export async function simulatedKubeadmPhase(s: InMemoryMachineScope): Promise<PhaseResult> {
  if (!s.provisioned || s.machine?.metadata.labels?.[LABEL_CONTROL_PLANE] === undefined) return {};
  if (valueAt(s.object.status, 'simulatedNode', 'apiServerCertificateNotAfter') !== undefined) return {};
  const ref = readReference(s.machine, 'spec', 'bootstrap', 'configRef');
  const config = ref ? await s.ctx.store.get(referenceKey(ref, s.object.metadata.namespace)) : undefined;
  s.certificateValidityDays = numberAt(config, 'spec', 'clusterConfiguration', 'certificateValidityPeriodDays') ?? DEFAULT_CERTIFICATE_VALIDITY_DAYS;
  return {};
}

export function provisionPhase(s: InMemoryMachineScope): PhaseResult {
  const waiting = notYet(s);
  if (waiting) return waiting;
  const providerID = inMemoryProviderID(s.object.metadata.namespace, s.object.metadata.name, s.object.kind);
  if (s.object.spec?.providerID !== providerID) s.desired = { ...s.object, spec: { ...s.object.spec, providerID } };
  s.provisioned = true;
  s.conditions.push({ type: 'Ready', status: 'True', reason: 'Provisioned' });
  return {};
}
