/**
 * Field conversions shared by the kubeadm documents: CAPI v1beta2 (kubeadm-v1beta4-aligned)
 * shapes into kubeadm v1beta4 or v1beta3 shapes.
 */
import { type KubeadmApiVersion, KUBEADM_V1BETA4 } from '../api-version.js';
import { goDuration } from '../go-duration.js';
import type { Arg, NodeRegistrationSpec, TimeoutsSpec } from '../types.js';

export type KubeadmObject = Record<string, unknown>;

/** v1beta4: the list as is; v1beta3: a map (a repeated name keeps the last value). Empty → omitted. */
export function extraArgs(args: Arg[] | undefined, apiVersion: KubeadmApiVersion): unknown {
  if (!args || args.length === 0) return undefined;
  if (apiVersion === KUBEADM_V1BETA4) return args.map(({ name, value }) => ({ name, value }));
  return Object.fromEntries(args.map(({ name, value }) => [name, value]));
}

export function nonEmpty<T>(list: T[] | undefined): T[] | undefined {
  return list && list.length > 0 ? list : undefined;
}

export function durationOf(seconds: number | undefined): string | undefined {
  return seconds === undefined ? undefined : goDuration(seconds);
}

/** `nodeRegistration`; unset taints serialize as `taints: null` (kubeadm's default taints). */
export function nodeRegistration(
  spec: NodeRegistrationSpec | undefined,
  apiVersion: KubeadmApiVersion,
): KubeadmObject {
  const v4 = apiVersion === KUBEADM_V1BETA4;
  return {
    name: spec?.name || undefined,
    criSocket: spec?.criSocket || undefined,
    taints: spec?.taints ? spec.taints.map((t) => ({ ...t })) : null,
    kubeletExtraArgs: extraArgs(spec?.kubeletExtraArgs, apiVersion),
    ignorePreflightErrors: nonEmpty(spec?.ignorePreflightErrors),
    imagePullPolicy: spec?.imagePullPolicy,
    imagePullSerial: v4 ? spec?.imagePullSerial : undefined,
  };
}

/** kubeadm v1beta4 `timeouts` (durations); undefined when nothing is set. */
export function timeouts(spec: TimeoutsSpec | undefined): KubeadmObject | undefined {
  if (!spec) return undefined;
  const out = {
    controlPlaneComponentHealthCheck: durationOf(spec.controlPlaneComponentHealthCheckSeconds),
    kubeletHealthCheck: durationOf(spec.kubeletHealthCheckSeconds),
    kubernetesAPICall: durationOf(spec.kubernetesAPICallSeconds),
    etcdAPICall: durationOf(spec.etcdAPICallSeconds),
    tlsBootstrap: durationOf(spec.tlsBootstrapSeconds),
    discovery: durationOf(spec.discoverySeconds),
  };
  return Object.values(out).some((v) => v !== undefined) ? out : undefined;
}

export function apiEndpoint(spec: { advertiseAddress?: string; bindPort?: number } | undefined): KubeadmObject {
  return { advertiseAddress: spec?.advertiseAddress || undefined, bindPort: spec?.bindPort || undefined };
}
