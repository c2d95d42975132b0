/**
 * Where admission knowingly differs from the CRD's schema alone, with the reason — a Cluster API
 * webhook that defaults before the schema is checked or refuses after it, or a capless rule —
 * each reported as skipped. Matched against the variant's name without its source
 * (`Kind: field what`).
 */

const DEFAULTED_SELECTOR =
  "Cluster API's defaulting webhook sets the selector from the cluster name before the CRD schema is checked (mutating admission runs first); capless defaults it the same way";
const DEFAULTED_TEMPLATE_LABELS =
  "Cluster API's defaulting webhook puts the cluster-name label on the machine template before the CRD schema is checked, so the template metadata is never empty; capless defaults it the same way";
const DEFAULTED_FORMAT =
  "Cluster API's defaulting webhooks set kubeadmConfigSpec.format (cloud-config) before the CRD schema is checked, so the spec is never empty; capless defaults it the same way";
const SERVED_KINDS =
  'capless refuses a reference to a kind no registered provider serves (there would be nothing to reconcile it); Cluster API leaves that to the controller';
const SEMVER =
  'Cluster API\'s webhooks refuse a version that is not a semantic version with a leading "v"; capless admission does too';
const SAME_CLUSTER =
  "Cluster API's MachineSet/MachineDeployment webhooks refuse a template clusterName other than spec.clusterName; capless admission does too";
const CLASS_WEBHOOK =
  "Cluster API's ClusterClass validating webhook checks patches (exactly one of definitions/external, of value/valueFrom, of variable/template; variables named by patches must be defined); capless admission does too";
const BOOTSTRAP = "Cluster API's Machine validating webhook refuses a bootstrap with neither configRef nor dataSecretName; capless admission does too";
const SELECTOR_LABELS =
  "Cluster API's MachineDeployment validating webhook refuses a selector that does not match the template labels; capless admission does too";

export const KNOWN: readonly [RegExp, string][] = [
  [/^Machine(Set|Deployment): spec\.selector removed$/, DEFAULTED_SELECTOR],
  [/^MachineSet: spec\.template\.metadata(\.labels removed| below minProperties 1)$/, DEFAULTED_TEMPLATE_LABELS],
  [/^MachineDeployment: spec\.template\.metadata(\.labels)? (removed|below minProperties 1)$/, SELECTOR_LABELS],
  [/^KubeadmControlPlane: spec\.kubeadmConfigSpec below minProperties 1$/, DEFAULTED_FORMAT],
  [/^KubeadmConfig: spec(\.(init|join)Configuration removed| below minProperties 1)$/, DEFAULTED_FORMAT],
  [/^KubeadmConfigTemplate: spec\.template( below minProperties 1|\.spec (removed|below minProperties 1)|\.spec\.joinConfiguration removed)$/, DEFAULTED_FORMAT],
  [/(controlPlaneRef|infrastructureRef|configRef|poolRef)\.(apiGroup at maxLength 253|kind at maxLength 63)$/, SERVED_KINDS],
  [/\.version at maxLength 256$/, SEMVER],
  [/^Machine(Set|Deployment): spec\.(template\.spec\.)?clusterName at maxLength 63$/, SAME_CLUSTER],
  [/^Machine(Set|Deployment)?: spec\.(template\.spec\.)?bootstrap\.configRef removed$/, BOOTSTRAP],
  [/^ClusterClass: spec\.variables( removed|\[0\]\.name at maxLength 256)$/, CLASS_WEBHOOK],
  [/^ClusterClass: spec\.patches\[0\]\.definitions( removed|\[0\]\.jsonPatches\[0\]\.valueFrom( removed|\.variable (removed|at maxLength 256)))$/, CLASS_WEBHOOK],
  [/^ExtensionConfig: spec\.clientConfig\.service removed$/, "Cluster API's ExtensionConfig validating webhook refuses a clientConfig with neither url nor service; capless admission does too"],
  [/^Metadata: releaseSeries\[0\]\.(major|minor|contract) removed$/, "clusterctl refuses a metadata.yaml release series without major, minor and contract (shared/contracts/clusterctl/metadata.ts); capless stores only what clusterctl can read"],
  [/^(Global)?InClusterIPPool: spec removed$/, "the in-cluster IPAM provider's validating webhook refuses a pool without addresses and prefix; capless admission does too"],
  [/^AWSMachine(Template)?: spec removed$/, "capless requires the spec of an AWSMachine(Template): the CRD requires instanceType in it, and CAPA's controller has nothing to launch without one"],
];

export function knownDifference(name: string): string | undefined {
  return KNOWN.find(([pattern]) => pattern.test(name))?.[1];
}
