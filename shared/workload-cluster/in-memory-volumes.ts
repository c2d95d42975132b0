/**
 * The volumes of simulated workload clusters, over the objects applied to them: PersistentVolumes
 * (`v1`) and VolumeAttachments (`storage.k8s.io/v1`), a Node reporting as attached the CSI volumes
 * of its attached VolumeAttachments (`kubernetes.io/csi/<driver>^<handle>`, as kubelet does). The
 * attach/detach controller is simulated at once: when the last Pod on a Node that uses a claim
 * leaves, the attachments of the volume bound to that claim go.
 */
import { recordAt, stringAt } from '../contracts/json.js';
import type { WorkloadClusterRef, WorkloadObject, WorkloadPersistentVolume, WorkloadPod, WorkloadVolumeAttachment } from '../ports/workload-cluster.js';
import type { InMemoryWorkloadObjects } from './in-memory-workload-objects.js';
import { workloadPodOf } from './workload-pod-of.js';

export function persistentVolumeOf(pv: WorkloadObject): WorkloadPersistentVolume {
  const driver = stringAt(pv, 'spec', 'csi', 'driver');
  const volumeHandle = stringAt(pv, 'spec', 'csi', 'volumeHandle');
  const claim = recordAt(pv, 'spec', 'claimRef');
  const field = (name: string) => {
    const value = stringAt(claim, name);
    return value ? { [name]: value } : {};
  };
  return {
    name: pv.metadata.name,
    ...(driver && volumeHandle ? { csi: { driver, volumeHandle } } : {}),
    ...(claim ? { claimRef: { ...field('kind'), ...field('namespace'), ...field('name') } } : {}),
  };
}

export class InMemoryVolumes {
  constructor(private readonly objects: InMemoryWorkloadObjects) {}

  persistentVolumes(cluster: WorkloadClusterRef): WorkloadPersistentVolume[] {
    return this.objects.list(cluster, 'v1', 'PersistentVolume').map(persistentVolumeOf);
  }

  attachments(cluster: WorkloadClusterRef, nodeName: string): WorkloadVolumeAttachment[] {
    return this.attachmentObjects(cluster, nodeName).map((va) => {
      const persistentVolumeName = stringAt(va, 'spec', 'source', 'persistentVolumeName');
      return { name: va.metadata.name, ...(persistentVolumeName ? { persistentVolumeName } : {}) };
    });
  }

  /** What the Node reports in status.volumesAttached. */
  attachedNames(cluster: WorkloadClusterRef, nodeName: string): string[] {
    const volumes = new Map(this.persistentVolumes(cluster).map((pv) => [pv.name, pv]));
    return this.attachments(cluster, nodeName).flatMap((va) => {
      const csi = va.persistentVolumeName ? volumes.get(va.persistentVolumeName)?.csi : undefined;
      return csi ? [`kubernetes.io/csi/${csi.driver}^${csi.volumeHandle}`] : [];
    });
  }

  /** After `pod` left `nodeName`: the attachments of claims no Pod left there uses go. */
  detachUnused(cluster: WorkloadClusterRef, nodeName: string, pod: WorkloadPod): void {
    const stillUsed = new Set(
      this.objects
        .list(cluster, 'v1', 'Pod')
        .filter((p) => stringAt(p, 'spec', 'nodeName') === nodeName)
        .flatMap((p) => workloadPodOf(p)?.persistentVolumeClaims.map((claim) => `${p.metadata.namespace ?? 'default'}/${claim}`) ?? []),
    );
    const released = new Set(
      this.persistentVolumes(cluster)
        .filter((pv) => pv.claimRef?.namespace === pod.namespace && pod.persistentVolumeClaims.includes(pv.claimRef.name ?? '') && !stillUsed.has(`${pod.namespace}/${pv.claimRef.name}`))
        .map((pv) => pv.name),
    );
    for (const va of this.attachmentObjects(cluster, nodeName)) {
      if (released.has(stringAt(va, 'spec', 'source', 'persistentVolumeName') ?? '')) this.objects.remove(cluster, va);
    }
  }

  private attachmentObjects(cluster: WorkloadClusterRef, nodeName: string): WorkloadObject[] {
    return this.objects
      .list(cluster, 'storage.k8s.io/v1', 'VolumeAttachment')
      .filter((va) => stringAt(va, 'spec', 'nodeName') === nodeName && recordAt(va, 'status')?.attached === true);
  }
}
