/**
 * External remediation (C14 `machinehealthcheck_controller.go`, `remediation.templateRef`): for
 * each unhealthy Machine the MachineHealthCheck creates a remediation request from the template
 * (`<Kind>Template` → `<Kind>`, named like the Machine, owned by it) instead of handing the Machine
 * to its owner; when the Machine is healthy again the request is deleted.
 */

import { stringAt } from '../../../../shared/contracts/json.js';
import { groupOf, type ObjectKey, ownerReferenceTo, type StoredObject } from '../../../../shared/contracts/object.js';
import { isAlreadyExists, isNotFound } from '../../../../shared/errors/index.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { cloneFromTemplate, kindFromTemplate } from '../../engine/templates/clone-template.js';
import type { RemediationMode } from './mark-machines.js';
import { REASON_WAITING_FOR_REMEDIATION } from './well-known.js';

export interface TemplateRef {
  group: string;
  kind: string;
  name: string;
}

/** `spec.remediation.templateRef` ({apiVersion, kind, name}); undefined when unset or not a `*Template`. */
export function templateRefOf(mhc: StoredObject): TemplateRef | undefined {
  const apiVersion = stringAt(mhc, 'spec', 'remediation', 'templateRef', 'apiVersion');
  const kind = stringAt(mhc, 'spec', 'remediation', 'templateRef', 'kind');
  const name = stringAt(mhc, 'spec', 'remediation', 'templateRef', 'name');
  return apiVersion && kind && name ? { group: groupOf(apiVersion), kind, name } : undefined;
}

function requestKey(ref: TemplateRef, machine: StoredObject): ObjectKey | undefined {
  const kind = kindFromTemplate(ref.kind);
  return kind ? { group: ref.group, kind, namespace: machine.metadata.namespace, name: machine.metadata.name } : undefined;
}

/** Ensures the request for an unhealthy Machine; the mode says what to write on the Machine. */
export async function requestRemediation(store: ObjectStore, ref: TemplateRef, machine: StoredObject): Promise<RemediationMode> {
  const template = await store.get({ group: ref.group, kind: ref.kind, namespace: machine.metadata.namespace, name: ref.name });
  const wanted = template && cloneFromTemplate({ template, name: machine.metadata.name, clusterName: stringAt(machine, 'spec', 'clusterName') ?? '', owner: ownerReferenceTo(machine) });
  if (!wanted) {
    return { by: 'external', reason: 'RemediationTemplateNotFound', message: `${ref.kind} ${ref.name} not found (or not a template)` };
  }
  try {
    await store.create(wanted);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  return { by: 'external', reason: REASON_WAITING_FOR_REMEDIATION, message: `Waiting for ${wanted.kind} ${machine.metadata.name}` };
}

/** A healthy Machine needs no request any more. */
export async function withdrawRemediation(store: ObjectStore, ref: TemplateRef, machine: StoredObject): Promise<void> {
  const key = requestKey(ref, machine);
  if (!key) return;
  try {
    const existing = await store.get(key);
    if (existing?.metadata.ownerReferences?.some((r) => r.uid === machine.metadata.uid)) await store.delete(key);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
