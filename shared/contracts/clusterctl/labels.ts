/**
 * clusterctl's well-known labels (`cmd/clusterctl/api/v1alpha3/labels.go`): what clusterctl puts
 * on the components it installs and what `clusterctl move` reads on CRDs.
 */

/** On every component clusterctl manages; `clusterctl move` discovers the kinds whose CRDs carry it. */
export const LABEL_CLUSTERCTL = 'clusterctl.cluster.x-k8s.io';
/** The provider a component belongs to, by its inventory name (`cluster-api`, `infrastructure-aws`). */
export const LABEL_PROVIDER = 'cluster.x-k8s.io/provider';
/** On clusterctl's own objects; `inventory` on the Provider inventory's CRD. */
export const LABEL_CLUSTERCTL_CORE = 'clusterctl.cluster.x-k8s.io/core';
export const CLUSTERCTL_CORE_INVENTORY = 'inventory';
/** On a CRD: move every object of the kind, even outside a Cluster's hierarchy. */
export const LABEL_CLUSTERCTL_MOVE = 'clusterctl.cluster.x-k8s.io/move';
/** On a CRD: move every object of the kind with everything it owns (the in-cluster IPAM pools). */
export const LABEL_CLUSTERCTL_MOVE_HIERARCHY = 'clusterctl.cluster.x-k8s.io/move-hierarchy';
