/**
 * Crash injection at await points: every call through a wrapped port (or store write) is one
 * await point; armed at point N it throws an InjectedCrash there, either before the call or after
 * it completed (the side effect happened, the answer is lost), exactly like a process killed
 * mid-reconcile. It fires once, then the run resumes as a restarted process would.
 */

import type { KubeObject, ObjectKey, StoredObject } from '../../shared/contracts/object.js';
import type { AwsCloud, AwsCloudFactory } from '../../shared/ports/aws-cloud.js';
import type { DeleteOptions, DeleteResult, ListQuery, ListResult, ObjectStore } from '../../shared/ports/object-store.js';

export class InjectedCrash extends Error {
  constructor(readonly point: string) {
    super(`injected crash at ${point}`);
    this.name = 'InjectedCrash';
  }
}

export type CrashTiming = 'before' | 'after';

export class FaultPlan {
  calls = 0;
  /** The await points passed since arming, in order (what a clean run goes through). */
  readonly points: string[] = [];
  crashed?: string;
  private armedAt?: number;
  private timing: CrashTiming = 'before';

  arm(at: number, timing: CrashTiming): void {
    this.calls = 0;
    this.points.length = 0;
    this.crashed = undefined;
    this.armedAt = at;
    this.timing = timing;
  }

  disarm(): void {
    this.armedAt = undefined;
    this.failing = undefined;
  }

  private failing?: { point: string; error: () => Error; remaining: number };

  /** The next `times` calls of `point` fail with `error()` before reaching the cloud (throttling and the like). */
  failCalls(point: string, error: () => Error, times: number): void {
    this.failing = { point, error, remaining: times };
  }

  async around<T>(point: string, call: () => Promise<T>): Promise<T> {
    this.calls++;
    this.points.push(point);
    if (this.failing && this.failing.point === point && this.failing.remaining > 0) {
      this.failing.remaining--;
      throw this.failing.error();
    }
    const fire = this.armedAt !== undefined && this.calls === this.armedAt;
    if (fire) this.armedAt = undefined;
    if (fire && this.timing === 'before') throw this.crash(point);
    const result = await call();
    if (fire) throw this.crash(point);
    return result;
  }

  private crash(point: string): InjectedCrash {
    this.crashed = `${point} (${this.timing})`;
    return new InjectedCrash(this.crashed);
  }
}

function wrapPort<T extends object>(port: T, label: string, plan: FaultPlan): T {
  return new Proxy(port, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => plan.around(`${label}.${String(property)}`, () => Promise.resolve(Reflect.apply(value, target, args)));
    },
  });
}

/** The cloud with every EC2, Secrets Manager and ELB call an await point of `plan`. */
export class FaultyAwsCloud implements AwsCloudFactory {
  constructor(
    readonly inner: AwsCloudFactory,
    private readonly plan: FaultPlan,
  ) {}

  forRegion(region: string): AwsCloud {
    const cloud = this.inner.forRegion(region);
    return {
      ec2: wrapPort(cloud.ec2, 'ec2', this.plan),
      secrets: wrapPort(cloud.secrets, 'secrets', this.plan),
      loadBalancers: wrapPort(cloud.loadBalancers, 'elb', this.plan),
    };
  }
}

/** A store whose writes are await points of `plan` too (a crash between a cloud call and its record). */
export class FaultyStore implements ObjectStore {
  constructor(
    private readonly inner: ObjectStore,
    private readonly plan: FaultPlan,
  ) {}

  create(obj: KubeObject): Promise<StoredObject> {
    return this.plan.around('store.create', () => this.inner.create(obj));
  }
  get(key: ObjectKey): Promise<StoredObject | undefined> {
    return this.inner.get(key);
  }
  update(obj: KubeObject): Promise<StoredObject> {
    return this.plan.around('store.update', () => this.inner.update(obj));
  }
  updateStatus(obj: KubeObject): Promise<StoredObject> {
    return this.plan.around('store.updateStatus', () => this.inner.updateStatus(obj));
  }
  updateWithStatus(obj: KubeObject): Promise<StoredObject> {
    return this.plan.around('store.updateWithStatus', () => this.inner.updateWithStatus(obj));
  }
  delete(key: ObjectKey, options?: DeleteOptions): Promise<DeleteResult> {
    return this.plan.around('store.delete', () => this.inner.delete(key, options));
  }
  list(query: ListQuery): Promise<ListResult> {
    return this.inner.list(query);
  }
  listByCluster(namespace: string, clusterName: string, kind?: Parameters<ObjectStore['listByCluster']>[2]): Promise<StoredObject[]> {
    return this.inner.listByCluster(namespace, clusterName, kind);
  }
  listByOwner(ownerUid: string): Promise<StoredObject[]> {
    return this.inner.listByOwner(ownerUid);
  }
}
