import type { ObjectKey } from '../contracts/object.js';

/**
 * The in-process queue's ready list, per kind (ADR 0133): object ids in arrival order within a
 * kind, kinds served round robin, and a limit on how many of one kind run at once, so a kind
 * whose reconciles wait long holds only its own slots.
 */
export class ReadyByKind {
  /** Kinds with ready ids, in the order they are served next. */
  private readonly ready = new Map<string, string[]>();
  private readonly running = new Map<string, number>();

  constructor(private readonly perKind: number) {}

  get isEmpty(): boolean {
    return this.ready.size === 0;
  }

  push(key: ObjectKey, id: string): void {
    const kind = kindOf(key);
    const ids = this.ready.get(kind);
    if (ids) ids.push(id);
    else this.ready.set(kind, [id]);
  }

  /** Takes the oldest id of the first kind in turn that is under its limit; that kind goes last. */
  next(): string | undefined {
    for (const [kind, ids] of this.ready) {
      if ((this.running.get(kind) ?? 0) >= this.perKind) continue;
      const id = ids.shift();
      this.ready.delete(kind);
      if (ids.length > 0) this.ready.set(kind, ids);
      return id;
    }
    return undefined;
  }

  started(key: ObjectKey): void {
    const kind = kindOf(key);
    this.running.set(kind, (this.running.get(kind) ?? 0) + 1);
  }

  finished(key: ObjectKey): void {
    const kind = kindOf(key);
    const running = (this.running.get(kind) ?? 1) - 1;
    if (running > 0) this.running.set(kind, running);
    else this.running.delete(kind);
  }

  clear(): void {
    this.ready.clear();
  }
}

function kindOf(key: ObjectKey): string {
  return `${key.group}/${key.kind}`;
}
