/** KubeadmConfigSpec v1beta1 → v1beta2: drops removed fields, `extraArgs` maps become `[{name, value}]` lists. */

import { isRecord } from '../json.js';
import { deleteAt, getAt, setAt } from './json-paths.js';

const EXTRA_ARGS_PATHS: readonly (readonly string[])[] = [
  ['initConfiguration', 'nodeRegistration', 'kubeletExtraArgs'],
  ['joinConfiguration', 'nodeRegistration', 'kubeletExtraArgs'],
  ['clusterConfiguration', 'apiServer', 'extraArgs'],
  ['clusterConfiguration', 'controllerManager', 'extraArgs'],
  ['clusterConfiguration', 'scheduler', 'extraArgs'],
  ['clusterConfiguration', 'etcd', 'local', 'extraArgs'],
];

function argsList(value: unknown): unknown {
  if (!isRecord(value)) return value;
  return Object.entries(value).map(([name, arg]) => ({ name, value: arg }));
}

export function convertKubeadmConfigSpec(spec: unknown): void {
  if (!isRecord(spec)) return;
  deleteAt(spec, ['useExperimentalRetryJoin']);
  for (const path of EXTRA_ARGS_PATHS) {
    const value = getAt(spec, path);
    if (isRecord(value)) setAt(spec, path, argsList(value));
  }
}
