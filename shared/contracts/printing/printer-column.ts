/**
 * A column `kubectl get` shows for a kind: a CRD's `additionalPrinterColumns` entry
 * (apiextensions.k8s.io/v1 CustomResourceColumnDefinition). Declared on the kind's registration
 * (KindInfo.printerColumns), from which the Table responses and the served CRDs both derive.
 */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  /** A JSONPath on the object, e.g. `.status.conditions[?(@.type=="Ready")].status`. */
  jsonPath: string;
  description?: string;
  /** 0 shows by default; higher only with `-o wide`. */
  priority?: number;
  format?: string;
}

const condition = (type: string, name = type, description = `${type} condition`, priority?: number): PrinterColumn => ({
  name,
  type: 'string',
  jsonPath: `.status.conditions[?(@.type=="${type}")].status`,
  description,
  ...(priority !== undefined ? { priority } : {}),
});

/** The column every kind ends with when it declares none of its own (what a CRD without columns shows). */
export const AGE_COLUMN = (kind: string): PrinterColumn => ({
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
  description: `Time duration since creation of ${kind}`,
});

const PAUSED = condition('Paused', 'Paused', 'Reconciliation paused', 10);
const integer = (name: string, jsonPath: string, description: string, priority?: number): PrinterColumn => ({
  name,
  type: 'integer',
  jsonPath,
  description,
  ...(priority !== undefined ? { priority } : {}),
});
const text = (name: string, jsonPath: string, description: string, priority?: number): PrinterColumn => ({
  name,
  type: 'string',
  jsonPath,
  description,
  ...(priority !== undefined ? { priority } : {}),
});
const CLUSTER_LABEL = text('Cluster', ".metadata.labels['cluster\\.x-k8s\\.io/cluster-name']", 'Cluster');
const CLUSTER_NAME = text('Cluster', '.spec.clusterName', 'Cluster');

function replicaColumns(): PrinterColumn[] {
  return [
    integer('Current', '.status.replicas', 'The number of machines'),
    integer('Ready', '.status.readyReplicas', 'The number of machines with Ready condition true'),
    integer('Available', '.status.availableReplicas', 'The number of machines with Available condition true'),
    integer('Up-to-date', '.status.upToDateReplicas', 'The number of machines with UpToDate condition true'),
  ];
}

/**
 * Cluster API v1.14's printer columns for its v1beta2 kinds, as its CRDs declare them
 * (test/contracts/printer-columns.test.ts compares them with ../shared/capi-samples/crds).
 */
export const CLUSTER_API_COLUMNS: Readonly<Record<string, readonly PrinterColumn[]>> = {
  Cluster: [
    text('ClusterClass', '.spec.topology.classRef.name', 'ClusterClass of this Cluster, empty if the Cluster is not using a ClusterClass'),
    condition('Available', 'Available', 'Cluster pass all availability checks'),
    integer('CP Desired', '.status.controlPlane.desiredReplicas', 'The desired number of control plane machines'),
    integer('CP Current', '.status.controlPlane.replicas', 'The number of control plane machines', 10),
    integer('CP Ready', '.status.controlPlane.readyReplicas', 'The number of control plane machines with Ready condition true', 10),
    integer('CP Available', '.status.controlPlane.availableReplicas', 'The number of control plane machines with Available condition true'),
    integer('CP Up-to-date', '.status.controlPlane.upToDateReplicas', 'The number of control plane machines with UpToDate condition true'),
    integer('W Desired', '.status.workers.desiredReplicas', 'The desired number of worker machines'),
    integer('W Current', '.status.workers.replicas', 'The number of worker machines', 10),
    integer('W Ready', '.status.workers.readyReplicas', 'The number of worker machines with Ready condition true', 10),
    integer('W Available', '.status.workers.availableReplicas', 'The number of worker machines with Available condition true'),
    integer('W Up-to-date', '.status.workers.upToDateReplicas', 'The number of worker machines with UpToDate condition true'),
    PAUSED,
    text('Phase', '.status.phase', 'Cluster status such as Pending/Provisioning/Provisioned/Deleting/Failed'),
    AGE_COLUMN('Cluster'),
    text('Version', '.spec.topology.version', 'Kubernetes version associated with this Cluster'),
  ],
  Machine: [
    CLUSTER_NAME,
    text('Node Name', '.status.nodeRef.name', 'Node name associated with this machine'),
    text('Provider ID', '.spec.providerID', 'Provider ID', 10),
    text('Failure domain', '.status.failureDomain', 'The failure domain where the Machine has been scheduled'),
    condition('Ready', 'Ready', 'Machine pass all readiness checks'),
    condition('Available', 'Available', 'Machine is Ready for at least MinReadySeconds'),
    condition('UpToDate', 'Up-to-date', " Machine spec matches the spec of the Machine's owner resource, e.g. MachineDeployment"),
    text('Internal-IP', '.status.addresses[?(@.type=="InternalIP")].address', 'Internal IP of the machine', 10),
    text('External-IP', '.status.addresses[?(@.type=="ExternalIP")].address', 'External IP of the machine', 10),
    text('OS-Image', '.status.nodeInfo.osImage', 'OS Image reported by the node', 10),
    PAUSED,
    text('Phase', '.status.phase', 'Machine status such as Terminating/Pending/Running/Failed etc'),
    AGE_COLUMN('Machine'),
    text('Version', '.spec.version', 'Kubernetes version associated with this Machine'),
  ],
  MachineSet: [
    CLUSTER_NAME,
    integer('Desired', '.spec.replicas', 'The desired number of machines'),
    ...replicaColumns(),
    PAUSED,
    AGE_COLUMN('MachineSet'),
    text('Version', '.spec.template.spec.version', 'Kubernetes version associated with this MachineSet'),
  ],
  MachineDeployment: [
    CLUSTER_NAME,
    condition('Available', 'Available', 'Cluster pass all availability checks'),
    integer('Desired', '.spec.replicas', 'The desired number of machines'),
    ...replicaColumns(),
    PAUSED,
    text('Phase', '.status.phase', 'MachineDeployment status such as ScalingUp/ScalingDown/Running/Failed/Unknown'),
    AGE_COLUMN('MachineDeployment'),
    text('Version', '.spec.template.spec.version', 'Kubernetes version associated with this MachineDeployment'),
  ],
  ClusterClass: [PAUSED, condition('VariablesReady', 'Variables Ready', 'Variables ready'), AGE_COLUMN('ClusterClass')],
  MachineHealthCheck: [
    CLUSTER_NAME,
    integer('Replicas', '.status.expectedMachines', 'Number of machines currently monitored'),
    integer('Healthy', '.status.currentHealthy', 'Current observed healthy machines'),
    PAUSED,
    AGE_COLUMN('MachineHealthCheck'),
  ],
  // The CRD declares Order a string column (kubectl prints the number either way).
  MachineDrainRule: [
    text('Behavior', '.spec.drain.behavior', 'Drain behavior'),
    text('Order', '.spec.drain.order', 'Drain order'),
    { ...AGE_COLUMN('MachineDrainRule'), description: 'Time duration since creation of the MachineDrainRule' },
  ],
  KubeadmConfig: [
    CLUSTER_LABEL,
    PAUSED,
    text('Data secret created', '.status.initialization.dataSecretCreated', 'Boostrap secret is created'),
    AGE_COLUMN('KubeadmConfig'),
  ],
  KubeadmConfigTemplate: [
    text('ClusterClass', '.metadata.ownerReferences[?(@.kind=="ClusterClass")].name', 'Name of the ClusterClass owning this template'),
    text('Cluster', '.metadata.ownerReferences[?(@.kind=="Cluster")].name', 'Name of the Cluster owning this template'),
    AGE_COLUMN('KubeadmConfigTemplate'),
  ],
  KubeadmControlPlane: [
    CLUSTER_LABEL,
    condition('Available', 'Available', 'Cluster pass all availability checks'),
    integer('Desired', '.spec.replicas', 'The desired number of machines'),
    ...replicaColumns(),
    PAUSED,
    { name: 'Initialized', type: 'boolean', jsonPath: '.status.initialization.controlPlaneInitialized', description: 'This denotes whether or not the control plane can accept requests' },
    AGE_COLUMN('KubeadmControlPlane'),
    text('Version', '.spec.version', 'Kubernetes version associated with this control plane'),
  ],
  IPAddressClaim: [
    text('Pool Name', '.spec.poolRef.name', 'Name of the pool to allocate an address from'),
    text('Pool Kind', '.spec.poolRef.kind', 'Kind of the pool to allocate an address from'),
    AGE_COLUMN('IPAddressClaim'),
  ],
  IPAddress: [
    text('Address', '.spec.address', 'Address'),
    text('Pool Name', '.spec.poolRef.name', 'Name of the pool the address is from'),
    text('Pool Kind', '.spec.poolRef.kind', 'Kind of the pool the address is from'),
    AGE_COLUMN('IPAddress'),
  ],
  ExtensionConfig: [PAUSED, condition('Discovered', 'Discovered', 'ExtensionConfig discovered'), AGE_COLUMN('ExtensionConfig')],
  // kubectl's columns for Namespaces (NAME, STATUS, AGE).
  Namespace: [{ name: 'Status', type: 'string', jsonPath: '.status.phase' }, AGE_COLUMN('Namespace')],
  Provider: [
    AGE_COLUMN('Provider'),
    { name: 'Type', type: 'string', jsonPath: '.type' },
    { name: 'Provider', type: 'string', jsonPath: '.providerName' },
    { name: 'Version', type: 'string', jsonPath: '.version' },
  ],
};
