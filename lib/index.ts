export { CaplessControlPlane } from './stacks/capless-control-plane.js';
export { CaplessStack, type CaplessStackProps } from './stacks/capless-stack.js';
export type { AuthMode, CaplessControlPlaneProps } from './stacks/props/control-plane-props.js';
export { ControlPlanePropsError } from './stacks/props/resolve-control-plane-props.js';
export { RECONCILED_KINDS, type ReconciledKind, reconcileKindKey } from './stacks/reconciled-kinds.js';
export { ObjectTable } from './stacks/state/object-table.js';
export { ReconcileQueues } from './stacks/work/reconcile-queues.js';
export { stackPropsFromContext } from './stacks/app/stack-props-from-context.js';
