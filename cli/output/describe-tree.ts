import { stringAt } from '../../shared/contracts/json.js';
import { ageOf } from '../../shared/contracts/printing/age.js';
import { conditionsOf, failingMessage, readyText } from './conditions.js';
import { renderTable } from './table.js';

/** What `capless describe cluster` found for one cluster. */
export interface ClusterObjects {
  cluster: unknown;
  infrastructure?: unknown;
  controlPlane?: unknown;
  controlPlaneMachines: unknown[];
  machineDeployments: Array<{ machineDeployment: unknown; machines: unknown[] }>;
  /** Worker machines that belong to no MachineDeployment. */
  otherMachines: unknown[];
}

export interface TreeNode {
  label: string;
  object?: unknown;
  children: TreeNode[];
}

const objectLabel = (object: unknown, role?: string): string =>
  `${role ? `${role} - ` : ''}${stringAt(object, 'kind') ?? '?'}/${stringAt(object, 'metadata', 'name') ?? '?'}`;

const leaf = (object: unknown, role?: string, children: TreeNode[] = []): TreeNode => ({ label: objectLabel(object, role), object, children });

/** The clusterctl-describe shape: Cluster → infrastructure, control plane → its Machines, Workers → MachineDeployments → Machines. */
export function clusterTree(objects: ClusterObjects): TreeNode {
  const children: TreeNode[] = [];
  if (objects.infrastructure !== undefined) children.push(leaf(objects.infrastructure, 'ClusterInfrastructure'));
  if (objects.controlPlane !== undefined) {
    children.push(leaf(objects.controlPlane, 'ControlPlane', objects.controlPlaneMachines.map((m) => leaf(m))));
  } else if (objects.controlPlaneMachines.length > 0) {
    children.push({ label: 'ControlPlane', children: objects.controlPlaneMachines.map((m) => leaf(m)) });
  }
  const workers = [
    ...objects.machineDeployments.map(({ machineDeployment, machines }) => leaf(machineDeployment, undefined, machines.map((m) => leaf(m)))),
    ...objects.otherMachines.map((m) => leaf(m)),
  ];
  if (workers.length > 0) children.push({ label: 'Workers', children: workers });
  return leaf(objects.cluster, undefined, children);
}

/** Renders the tree as a table: NAME (with tree lines), READY, PHASE, AGE, MESSAGE; `showConditions` adds one row per condition. */
export function renderTree(root: TreeNode, now: number, showConditions: boolean): string {
  const rows: string[][] = [];
  const visit = (node: TreeNode, prefix: string, childPrefix: string) => {
    const o = node.object;
    rows.push(
      o === undefined
        ? [`${prefix}${node.label}`, '', '', '', '']
        : [`${prefix}${node.label}`, readyText(o), stringAt(o, 'status', 'phase') ?? '', ageOf(stringAt(o, 'metadata', 'creationTimestamp'), now), oneLine(failingMessage(o))],
    );
    const conditionRows = showConditions && o !== undefined ? conditionsOf(o) : [];
    const total = conditionRows.length + node.children.length;
    conditionRows.forEach((c, i) => {
      const last = i === total - 1;
      rows.push([`${childPrefix}${last ? '└─' : '├─'}${c.type}`, c.status, c.reason ?? '', ageOf(c.lastTransitionTime, now), oneLine(c.message ?? '')]);
    });
    node.children.forEach((child, i) => {
      const last = conditionRows.length + i === total - 1;
      visit(child, `${childPrefix}${last ? '└─' : '├─'}`, `${childPrefix}${last ? '  ' : '│ '}`);
    });
  };
  visit(root, '', '');
  return renderTable(['NAME', 'READY', showConditions ? 'PHASE/REASON' : 'PHASE', showConditions ? 'AGE/SINCE' : 'AGE', 'MESSAGE'], rows);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 97)}...` : flat;
}
