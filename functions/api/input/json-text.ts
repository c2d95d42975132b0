import { BadRequestError } from '../../../shared/errors/index.js';
import { MAX_NESTING_DEPTH, fieldPath } from './structure-limits.js';

interface Frame {
  kind: 'object' | 'array';
  keys: Set<string>;
  /** In an object: the next string is a key. */
  expectKey: boolean;
  /** The key or index this frame is the value of, in its parent. */
  at: string | number | undefined;
  /** Arrays: index of the current element; objects: the last key. */
  current: string | number | undefined;
}

/**
 * JSON.parse plus what it lets through silently: a key given twice in one object (Kubernetes'
 * strict decoding refuses it: `duplicate field`) and nesting deeper than MAX_NESTING_DEPTH. The
 * nesting check runs before JSON.parse builds anything.
 */
export function parseJsonText(text: string, what: string): unknown {
  new JsonScan(text, what, false).run();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new BadRequestError(`${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  new JsonScan(text, what, true).run();
  return parsed;
}

/**
 * One pass over the text. Before parsing (`compareKeys` false) only nesting is checked, so a
 * broken document still gets JSON.parse's own message; after, keys are compared too.
 */
class JsonScan {
  private readonly stack: Frame[] = [];

  constructor(
    private readonly text: string,
    private readonly what: string,
    private readonly compareKeys: boolean,
  ) {}

  run(): void {
    const { text } = this;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22 /* " */) {
        const end = endOfString(text, i);
        if (end < 0) return; // unterminated: JSON.parse reports it
        this.onString(i, end);
        i = end;
      } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        this.open(c === 0x7b ? 'object' : 'array');
      } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
        this.stack.pop();
      } else if (c === 0x2c /* , */) {
        this.nextElement();
      }
    }
  }

  private path(): (string | number)[] {
    return this.stack.slice(1).map((f) => f.at ?? '');
  }

  private onString(start: number, end: number): void {
    const top = this.stack[this.stack.length - 1];
    if (!this.compareKeys || top?.kind !== 'object' || !top.expectKey) return;
    const raw = this.text.slice(start, end + 1);
    const key = raw.includes('\\') ? String(JSON.parse(raw)) : raw.slice(1, -1);
    if (top.keys.has(key)) {
      const field = fieldPath([...this.path(), key]);
      throw new BadRequestError(`${this.what}: duplicate field ${JSON.stringify(field)}`, {
        causes: [{ field, reason: 'FieldValueDuplicate', message: `duplicate field ${JSON.stringify(key)}` }],
      });
    }
    top.keys.add(key);
    top.current = key;
    top.expectKey = false;
  }

  private open(kind: Frame['kind']): void {
    if (this.stack.length >= MAX_NESTING_DEPTH) {
      const field = fieldPath(this.path());
      throw new BadRequestError(`${this.what} nests deeper than ${MAX_NESTING_DEPTH} levels (at ${field})`, {
        causes: [{ field, reason: 'FieldValueInvalid', message: `nests deeper than ${MAX_NESTING_DEPTH} levels` }],
      });
    }
    const parent = this.stack[this.stack.length - 1];
    this.stack.push({ kind, keys: new Set(), expectKey: kind === 'object', at: parent?.current, current: kind === 'object' ? undefined : 0 });
  }

  private nextElement(): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.kind === 'object') top.expectKey = true;
    else if (top && typeof top.current === 'number') top.current += 1;
  }
}

/** Index of the closing quote of the string opening at `start`, or -1. */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i;
  }
  return -1;
}
