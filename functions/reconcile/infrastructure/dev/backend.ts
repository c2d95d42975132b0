/**
 * Which backend a Dev* object asks for, and the simulated start-up time of an in-memory DevMachine:
 * each stage (vm, node, and for control-plane machines apiServer and etcd) takes its
 * `startupDuration` stretched by up to `startupJitter` of it, the jitter drawn deterministically from
 * the machine's identity so every run of the reconciler computes the same time.
 */

import { LABEL_CONTROL_PLANE } from '../../../../shared/contracts/object.js';
import { durationToSeconds } from '../../../../shared/contracts/conversion/durations.js';
import { recordAt, stringAt } from '../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { stableHash } from '../../engine/hashing/stable-hash.js';

export type DevBackend = 'inMemory' | 'docker' | 'none';

export function devBackendOf(obj: StoredObject): DevBackend {
  const backend = recordAt(obj.spec, 'backend');
  if (backend?.inMemory !== undefined) return 'inMemory';
  if (backend?.docker !== undefined) return 'docker';
  return 'none';
}

const MACHINE_STAGES = ['vm', 'node'] as const;
const CONTROL_PLANE_STAGES = ['apiServer', 'etcd'] as const;

function stageSeconds(obj: StoredObject, stage: string): number {
  const duration = durationToSeconds(stringAt(obj.spec, 'backend', 'inMemory', stage, 'provisioning', 'startupDuration') ?? '0s');
  const jitter = Number(stringAt(obj.spec, 'backend', 'inMemory', stage, 'provisioning', 'startupJitter') ?? '0');
  const base = typeof duration === 'number' ? duration : 0;
  const fraction = Number.isFinite(jitter) && jitter > 0 ? jitter : 0;
  const draw = (stableHash(`${obj.metadata.namespace}/${obj.metadata.name}/${stage}`) % 1000) / 1000;
  return base * (1 + fraction * draw);
}

/** Whole seconds from creation until the simulated machine (and, on control-plane machines, its API server and etcd) is up. */
export function devStartupSeconds(obj: StoredObject): number {
  const controlPlane = obj.metadata.labels?.[LABEL_CONTROL_PLANE] !== undefined;
  const stages = controlPlane ? [...MACHINE_STAGES, ...CONTROL_PLANE_STAGES] : [...MACHINE_STAGES];
  return Math.ceil(stages.reduce((sum, stage) => sum + stageSeconds(obj, stage), 0));
}
