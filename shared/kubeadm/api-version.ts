/** kubeadm API version by Kubernetes version (Cluster API `KubeVersionToKubeadmAPIGroupVersion`). */
import { TerminalError } from '../errors/index.js';

export const KUBEADM_V1BETA3 = 'kubeadm.k8s.io/v1beta3';
export const KUBEADM_V1BETA4 = 'kubeadm.k8s.io/v1beta4';
export type KubeadmApiVersion = typeof KUBEADM_V1BETA3 | typeof KUBEADM_V1BETA4;

export interface KubernetesVersion {
  major: number;
  minor: number;
  patch: number;
}

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses `v1.31.2`, `1.31.2`, `v1.32.0-rc.1+abc` (pre-release and build metadata ignored). */
export function parseKubernetesVersion(version: string): KubernetesVersion {
  const match = SEMVER.exec(version.trim());
  if (!match) throw new TerminalError('InvalidVersion', `invalid Kubernetes version "${version}"`);
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

/** < 1.22 → error; 1.22–1.30 → v1beta3; ≥ 1.31 → v1beta4. */
export function kubeadmApiVersion(kubernetesVersion: string): KubeadmApiVersion {
  const { major, minor } = parseKubernetesVersion(kubernetesVersion);
  if (major !== 1 || minor < 22) {
    throw new TerminalError(
      'UnsupportedVersion',
      `Kubernetes version ${kubernetesVersion} is not supported by kubeadm bootstrap (need >= v1.22.0)`,
    );
  }
  return minor >= 31 ? KUBEADM_V1BETA4 : KUBEADM_V1BETA3;
}
