/**
 * Executes parsed templates with Go's text/template semantics for what ClusterClasses use:
 * truthiness, field access on maps (a missing key is `<no value>`, or an error with
 * `missingkey=error`), variables, and the built-in and sprig functions in functions.ts.
 */

import { isRecord } from '../contracts/json.js';
import { TEMPLATE_FUNCTIONS, type TemplateFunction } from './functions.js';
import { type Command, type Node, type Operand, type Pipeline, parseTemplate, TemplateError } from './parse.js';

export { TemplateError } from './parse.js';

export interface RenderOptions {
  /** Go's `missingkey=error` (naming templates); default: a missing key is `<no value>`. */
  missingKeyError?: boolean;
}

const NO_VALUE = '<no value>';

/** Go's `IsTrue`: false, 0, nil, and empty strings, slices and maps are false. */
export function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return true;
}

/** How `{{ x }}` prints a value (fmt's %v for the JSON types). */
export function printValue(value: unknown): string {
  if (value === undefined || value === null) return NO_VALUE;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(printValue).join(' ')}]`;
  if (isRecord(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${k}:${printValue(value[k])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(value);
}

class Execution {
  private readonly vars: Map<string, unknown>[] = [];
  constructor(
    private readonly root: unknown,
    private readonly options: RenderOptions,
  ) {}

  run(nodes: Node[], dot: unknown): string {
    this.vars.push(new Map());
    try {
      let out = '';
      for (const node of nodes) out += this.node(node, dot);
      return out;
    } finally {
      this.vars.pop();
    }
  }

  private node(node: Node, dot: unknown): string {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'action': {
        const value = this.pipeline(node.pipe, dot);
        return node.pipe.declare ? '' : printValue(value);
      }
      case 'if': {
        const value = this.pipeline(node.pipe, dot);
        return truthy(value) ? this.run(node.whenTrue, dot) : this.run(node.otherwise, dot);
      }
      case 'with': {
        const value = this.pipeline(node.pipe, dot);
        return truthy(value) ? this.run(node.whenTrue, value) : this.run(node.otherwise, dot);
      }
      case 'range': {
        const value = this.pipeline(node.pipe, dot);
        const items = Array.isArray(value) ? value : isRecord(value) ? Object.keys(value).sort().map((k) => value[k]) : [];
        if (items.length === 0) return this.run(node.otherwise, dot);
        return items.map((item) => this.run(node.body, item)).join('');
      }
    }
  }

  private pipeline(pipe: Pipeline, dot: unknown): unknown {
    let value: unknown;
    let first = true;
    for (const command of pipe.commands) {
      value = this.command(command, dot, first ? undefined : { value });
      first = false;
    }
    if (pipe.declare) this.vars[this.vars.length - 1]?.set(pipe.declare, value);
    return value;
  }

  private command(command: Command, dot: unknown, piped?: { value: unknown }): unknown {
    const [head, ...rest] = command.args;
    if (head?.type === 'ident') {
      const fn: TemplateFunction | undefined = TEMPLATE_FUNCTIONS[head.name];
      if (!fn) throw new TemplateError(`function "${head.name}" not defined`);
      const args = rest.map((a) => this.operand(a, dot));
      if (piped) args.push(piped.value);
      return fn(...args);
    }
    if (rest.length > 0 || piped) throw new TemplateError('can\'t give argument to non-function');
    return head ? this.operand(head, dot) : undefined;
  }

  private operand(operand: Operand, dot: unknown): unknown {
    switch (operand.type) {
      case 'literal':
        return operand.value;
      case 'pipe':
        return this.pipeline(operand.pipe, dot);
      case 'ident': {
        const fn = TEMPLATE_FUNCTIONS[operand.name];
        if (!fn) throw new TemplateError(`function "${operand.name}" not defined`);
        return fn();
      }
      case 'field': {
        const base = operand.root === 'dot' ? dot : operand.root === 'root' ? this.root : this.variable(operand.name ?? '');
        return this.walk(base, operand.path);
      }
    }
  }

  private variable(name: string): unknown {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const scope = this.vars[i];
      if (scope?.has(name)) return scope.get(name);
    }
    throw new TemplateError(`undefined variable "${name}"`);
  }

  private walk(base: unknown, path: readonly string[]): unknown {
    let current = base;
    for (const [i, key] of path.entries()) {
      if (current === undefined || current === null) {
        if (this.options.missingKeyError) throw new TemplateError(`map has no entry for key "${key}"`);
        throw new TemplateError(`nil pointer evaluating .${path.slice(0, i + 1).join('.')}`);
      }
      if (!isRecord(current)) throw new TemplateError(`can't evaluate field ${key} in type ${typeof current}`);
      if (!Object.hasOwn(current, key)) {
        if (this.options.missingKeyError) throw new TemplateError(`map has no entry for key "${key}"`);
        current = undefined;
        continue;
      }
      current = current[key];
    }
    return current;
  }
}

/** Parses and executes `source` against `data`; throws TemplateError on a parse or execution error. */
export function renderTemplate(source: string, data: unknown, options: RenderOptions = {}): string {
  const nodes = parseTemplate(source);
  return new Execution(data, options).run(nodes, data);
}

/** Parse only: the error a template would fail with before any data is known, if any. */
export function templateParseError(source: string): string | undefined {
  try {
    parseTemplate(source);
    return undefined;
  } catch (error) {
    if (error instanceof TemplateError) return error.message;
    throw error;
  }
}
