import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import type { CloudEvent } from '../../../../shared/contracts/cloud-event-message.js';
import type { GroupKind, ObjectKey, StoredObject } from '../../../../shared/contracts/object.js';
import type { Clock } from '../../../../shared/ports/clock.js';
import type { Logger } from '../../../../shared/ports/logger.js';
import type { ChangeType, ObjectStore } from '../../../../shared/ports/object-store.js';
import type { WorkQueue } from '../../../../shared/ports/work-queue.js';

/** The ports a reconciler sees. Provider-specific ports hang off `providers`. */
export interface ReconcileContext {
  store: ObjectStore;
  queue: WorkQueue;
  clock: Clock;
  logger: Logger;
  /** Ports that only some kinds need (workload cluster, EC2, hook client …), by name. */
  providers?: Readonly<Record<string, unknown>>;
}

export interface ReconcileResult {
  /** Run again after this many seconds even if nothing changes. */
  requeueAfterSeconds?: number;
  /** The object was not in the store when the run ended: never found, or its last finalizer removed. */
  gone?: true;
}

/** What a phase returns: nothing (go on), a requeue, or stop (skip the later phases). */
export interface PhaseResult extends ReconcileResult {
  stop?: boolean;
}

/** State shared by the phases of one reconcile. Kinds extend it with what their phases find. */
export interface Scope {
  readonly ctx: ReconcileContext;
  /** The object as last read or written; phases that write it replace it. */
  object: StoredObject;
  /** Conditions the phases report; merged into status.conditions once at the end. */
  conditions: ConditionInput[];
  /**
   * The object's metadata and spec as the phases want them, set by phases that change their own
   * object (a providerID, a data secret name). When it differs from `object`, the skeleton writes
   * it and the status in one write (Cluster API's deferred patch, as one item write); otherwise
   * the status alone.
   */
  desired?: StoredObject;
}

export type Phase<S extends Scope> = (scope: S) => Promise<PhaseResult | undefined> | PhaseResult | undefined;

/** The new status of an object, computed by a pure function from the scope. */
export interface StatusUpdate {
  /** Status fields other than conditions and observedGeneration; replaces them wholesale. */
  fields: Record<string, unknown>;
}

/**
 * How a kind names what it reacts to. `self` is implied. A watch on another kind maps a change
 * of that kind to requests for this one:
 * - `owner`: the changed object's ownerReferences of this kind (e.g. Machine → its MachineSet);
 * - `referrer`: objects of this kind whose `field` names or selects the changed object. The
 *   changed object's ownerReferences of this kind answer first, with no store call (Cluster API's
 *   mappers go by owner once an object is adopted); only a version without such an owner is
 *   looked up, in its cluster or namespace, and the candidates filtered by `field`;
 * - `clusterLabel`: objects of this kind in the same cluster (cluster-name label);
 * - `clusterMembers` (on a Cluster): objects of this kind that belong to the changed Cluster: by
 *   the cluster-name label carrying its name (a Cluster created paused has never labelled
 *   itself), and the objects its `infrastructureRef` and `controlPlaneRef` name;
 * - `reference`: the object of this kind the changed object names in `field` (Cluster API's
 *   MachineToInfrastructureMapFunc: Machine → its InfraMachine); read off the change, no store call.
 * `changes` (a predicate, as data) narrows a watch to modifications of the listed field paths:
 * inserts and removals always pass, a MODIFY passes only when one of those paths differs. A path
 * may name one condition by type (`conditionPath('Ready')`): its status or reason must differ.
 * `on` (also a predicate as data) narrows a watch to the listed change types: a deleting owner
 * that waits for its members to be gone watches their `REMOVE`s only, so it proceeds when the
 * last one goes instead of on a timer, and their other writes do not wake it.
 * `ignore` (a predicate as data) drops changes to objects whose field at `path` holds one of
 * `values` in every version the change carries, before any lookup: a ClusterResourceSet does not
 * hear of the Secrets only controllers write (ADR 0142).
 * `marks` (a predicate as data) names the condition the watcher writes on every object it has
 * evaluated: a modification of one that carries it in neither version passes only through
 * `unmarkedChanges` (ADR 0145).
 */
export type Watch = WatchMapping & { changes?: readonly string[]; on?: readonly ChangeType[]; ignore?: IgnoredValues; marks?: EvaluationMark };

/**
 * The condition a watcher writes on every object it evaluates, in the run that evaluates it (a
 * MachineHealthCheck's `HealthCheckSucceeded` on each of its targets). An object that carries it
 * in neither version of a modification has not been evaluated since it was created: its creation
 * already woke the watcher (or the watcher's own creation made it look), and whatever changed
 * after the watcher read it is followed by the watcher's marking write, a change that carries
 * the mark and always wakes it again. Only the `unmarkedChanges` can make such an object matter
 * that did not (labels, for a selector), so only they pass. Inserts and removals always pass.
 */
export interface EvaluationMark {
  condition: string;
  unmarkedChanges: readonly string[];
}

export interface IgnoredValues {
  /** A dotted field path, e.g. `type`. */
  path: string;
  values: readonly string[];
}

type WatchMapping =
  | { kind: GroupKind; by: 'owner' }
  | { kind: GroupKind; by: 'clusterLabel' }
  | { kind: GroupKind; by: 'clusterMembers' }
  | { kind: GroupKind; by: 'referrer'; field: ReferrerField }
  | { kind: GroupKind; by: 'reference'; field: ReferrerField };

/** Where the referring object keeps the reference (the router looks it up in the store). */
export type ReferrerField =
  | 'spec.infrastructureRef'
  | 'spec.controlPlaneRef'
  | 'spec.bootstrap.configRef'
  | 'spec.template.spec.infrastructureRef'
  | 'spec.template.spec.bootstrap.configRef'
  | 'spec.machineTemplate.spec.infrastructureRef'
  | 'spec.poolRef'
  | 'spec.clusterName'
  | 'spec.topology.classRef'
  | 'spec.patches.external.discoverVariablesExtension'
  /** A label selector: the referrer selects the changed object by its labels (an empty one selects nothing). */
  | 'spec.clusterSelector'
  /** A list of `{kind, name}` in the referrer's namespace (a ClusterResourceSet's ConfigMaps and Secrets). */
  | 'spec.resources';

/** The condition types `readsOwnConditions` names: fixed ones, and those a list in the spec names. */
export interface OwnConditionReads {
  types: readonly string[];
  /** A spec list whose entries name a condition in `conditionType` (`spec.readinessGates`). */
  typesListedAt?: 'spec.readinessGates';
}

export interface ReconcilerDefinition<S extends Scope> {
  kind: GroupKind;
  /** Added on first reconcile, removed when the delete phases finish. */
  finalizer?: string;
  /**
   * Spec paths this reconciler fills in on its own object and goes on past in the same run (a
   * providerID, an endpoint). A change that only fills these in, from absent, is the echo of its
   * own write and does not wake it again; changing one that was set still does (ADR 0134).
   */
  fillsOwnSpec?: readonly string[];
  /** Label keys it sets on its own object the same way: their appearance is its own echo (ADR 0137). */
  fillsOwnLabels?: readonly string[];
  /** It makes its Cluster an owner of its own object the same way: that reference appearing is its own echo (ADR 0151). */
  fillsOwnClusterOwner?: boolean;
  /**
   * Annotation keys on its own object whose change tells it nothing: it derives them itself from
   * what it reads elsewhere (a MachineDeployment's revision, its current MachineSet's), or others
   * write them there for another reader (the certificate expiry a control plane records on a
   * KubeadmConfig for its Machine). The router does not wake it for them (ADR 0161).
   */
  ignoresOwnAnnotations?: readonly string[];
  /**
   * Conditions other controllers write on its own object that it summarises (a Machine's
   * `HealthCheckSucceeded`, and those its `spec.readinessGates` name): a write that changes one
   * of them wakes it, as controller-runtime wakes Cluster API's reconcilers on any write.
   */
  readsOwnConditions?: OwnConditionReads;
  watches: readonly Watch[];
  createScope(ctx: ReconcileContext, object: StoredObject): S | Promise<S>;
  phases: readonly Phase<S>[];
  /** Run instead of `phases` while deletionTimestamp is set. All must finish (no requeue, no stop) before the finalizer goes. */
  deletePhases: readonly Phase<S>[];
  /** Pure: the status to write, from what the phases found. */
  computeStatus(scope: S): StatusUpdate;
  /**
   * `false` for a kind that is not paused with the Cluster it is labelled with, only by its own
   * paused annotation: the in-cluster IPAM provider's pools carry a cluster's name for
   * `clusterctl move` alone, and its pool controller reads no Cluster (ADR 0148). Default: paused
   * with its Cluster, as Cluster API's util/paused does, and woken by its pause and unpause.
   * Provider kinds get it from their contract role (providers/contract-rules.ts).
   */
  pausesWithCluster?: false;
  /**
   * An object with the `cluster.x-k8s.io/managed-by` annotation is an external system's: its
   * reconcile reads it and changes nothing, deletion included (an InfraCluster's contract, ADR
   * 0150). Provider kinds get it from their contract role (providers/contract-rules.ts).
   */
  skipsExternallyManaged?: true;
  /** Cloud events routed to this kind's queue (EventBridge), mapped to the objects to reconcile. */
  cloudEvents?: (ctx: ReconcileContext, event: CloudEvent) => Promise<ObjectKey[]>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds reconcilers of every scope type
export type AnyReconciler = ReconcilerDefinition<any>;
