/**
 * The watch conformance suite: Kubernetes watch semantics served from a store's change feed
 * (ADR 0080), run unchanged on every ObjectStore that reports changes (memory, DynamoDB on
 * dynalite). Requests go through the API handler in-process; the stream is read through a sink.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiDeps, handleApiRequest } from '../../functions/api/api.js';
import type { Principal } from '../../functions/api/auth.js';
import type { ApiResponse, StreamSink } from '../../functions/api/http.js';
import { pathAdmission } from '../../functions/api/path-admission.js';
import { WatchHub, type WatchLimits } from '../../functions/api/watch/watch-hub.js';
import { isRecord, stringAt } from '../../shared/contracts/json.js';
import { KindRegistry } from '../../shared/contracts/kinds.js';
import type { KubeObject, ObjectKey, StoredObject } from '../../shared/contracts/object.js';
import { builtinProviderLookup } from '../../shared/contracts/providers/builtin-lookup.js';
import { silentLogger } from '../../shared/ports/logger.js';
import type { ChangeSource, ObjectStore } from '../../shared/ports/object-store.js';
import { ChangeLog, type ChangeLogOptions } from '../../shared/watch/change-log.js';
import { recoverMissedChanges } from '../../shared/watch/recover-missed-changes.js';
import { FileChangeJournal } from '../../local/file-change-journal.js';
import { eventually } from '../support/eventually.js';

export interface WatchStoreUnderTest {
  store: ObjectStore & ChangeSource;
  cleanup(): Promise<void>;
}

const CM = '/api/v1/namespaces/ns1/configmaps';
const ALL_CM = '/api/v1/configmaps';
const SECRETS = '/api/v1/namespaces/ns1/secrets';

interface WatchEvent {
  type: string;
  object: Record<string, unknown>;
}

/** A client reading a watch: collects its events; `reading: false` makes it stop reading. */
class Reader implements StreamSink {
  readonly events: WatchEvent[] = [];
  ended = false;
  private partial = '';
  constructor(private readonly reading = true) {}
  write(chunk: string): boolean {
    this.partial += chunk;
    let newline = this.partial.indexOf('\n');
    while (newline >= 0) {
      const parsed: unknown = JSON.parse(this.partial.slice(0, newline));
      if (isRecord(parsed) && typeof parsed.type === 'string' && isRecord(parsed.object)) this.events.push({ type: parsed.type, object: parsed.object });
      this.partial = this.partial.slice(newline + 1);
      newline = this.partial.indexOf('\n');
    }
    return this.reading;
  }
  end(): void {
    this.ended = true;
  }
  /** `TYPE name` of each event other than bookmarks. */
  summary(): string[] {
    return this.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${stringAt(e.object, 'metadata', 'name') ?? '?'}`);
  }
  lastVersion(): string {
    const last = this.events.at(-1);
    return (last && stringAt(last.object, 'metadata', 'resourceVersion')) ?? '';
  }
}

function configMap(name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns1', labels }, data };
}

function cmKey(name: string): ObjectKey {
  return { group: '', kind: 'ConfigMap', namespace: 'ns1', name };
}

export function describeWatchConformance(name: string, makeStore: () => Promise<WatchStoreUnderTest>): void {
  describe(`watch conformance: ${name}`, () => {
    let subject: WatchStoreUnderTest;
    let store: ObjectStore & ChangeSource;
    let hub: WatchHub;
    let deps: ApiDeps;
    let journalDir: string;
    const principal: Principal = { name: 'admin', canReadSecrets: true, canWriteSecrets: true };

    function serve(limits: Partial<WatchLimits> = {}, log: ChangeLogOptions = {}): void {
      hub?.close();
      hub?.log.close();
      hub = new WatchHub(new ChangeLog(store, log), { bookmarkIntervalMs: 60_000, ...limits });
      const kinds = new KindRegistry();
      deps = { store, kinds, admission: pathAdmission(kinds, builtinProviderLookup), authenticate: () => principal, logger: silentLogger, watches: hub };
    }

    /** Stops serving, as a process that exits does (the log stops listening to the store). */
    function stop(): void {
      hub.close();
      hub.log.close();
    }

    /** Serves from a log kept in the journal directory, caught up with the store as `capless up` does at start. */
    async function serveDurable(log: ChangeLogOptions = {}): Promise<void> {
      stop();
      serve({}, { ...log, journal: new FileChangeJournal(journalDir) });
      await recoverMissedChanges(hub.log, store, [{ group: '', kind: 'ConfigMap' }]);
    }

    beforeEach(async () => {
      subject = await makeStore();
      store = subject.store;
      journalDir = await mkdtemp(join(tmpdir(), 'capless-watch-journal-'));
      serve();
    });
    afterEach(async () => {
      stop();
      await subject.cleanup();
      await rm(journalDir, { recursive: true, force: true });
    });

    function get(path: string, query = ''): Promise<ApiResponse> {
      return handleApiRequest({ method: 'GET', path, query: new URLSearchParams(query), headers: {}, body: '' }, deps);
    }

    async function watch(path: string, query: string, reader = new Reader()): Promise<Reader> {
      const response = await get(path, `watch=true&${query}`);
      expect(response.status, response.body).toBe(200);
      expect(response.stream).toBeDefined();
      response.stream?.start(reader);
      return reader;
    }

    async function listVersion(path: string): Promise<string> {
      const response = await get(path);
      const version = stringAt(JSON.parse(response.body), 'metadata', 'resourceVersion');
      expect(version).toMatch(/^[0-9]+$/);
      return version ?? '';
    }

    async function update(name: string, data: Record<string, string>, labels?: Record<string, string>): Promise<StoredObject> {
      const current = await store.get(cmKey(name));
      if (!current) throw new Error(`${name} is gone`);
      return store.update({ ...current, data, metadata: { ...current.metadata, ...(labels ? { labels } : {}) } });
    }

    it('sends ADDED, MODIFIED and DELETED in the order the store made them', async () => {
      const reader = await watch(CM, `resourceVersion=${await listVersion(CM)}`);
      await store.create(configMap('a'));
      await store.create(configMap('b'));
      await update('a', { k: '1' });
      await store.delete(cmKey('b'));
      await update('a', { k: '2' });
      expect(reader.summary()).toEqual(['ADDED a', 'ADDED b', 'MODIFIED a', 'DELETED b', 'MODIFIED a']);
      const versions = reader.events.map((e) => stringAt(e.object, 'metadata', 'resourceVersion'));
      expect(new Set(versions).size, 'every event carries its own resourceVersion').toBe(versions.length);
    });

    it("resumes from a list's resourceVersion with exactly the changes made after the list", async () => {
      await store.create(configMap('before'));
      const version = await listVersion(CM);
      await store.create(configMap('after'));
      await update('before', { k: 'v' });
      const reader = await watch(CM, `resourceVersion=${version}`);
      expect(reader.summary()).toEqual(['ADDED after', 'MODIFIED before']);
    });

    it("resumes from any event's resourceVersion without losing or repeating an event", async () => {
      const first = await watch(CM, `resourceVersion=${await listVersion(CM)}`);
      for (const name of ['a', 'b', 'c']) await store.create(configMap(name));
      await update('b', { k: '1' });
      await store.delete(cmKey('a'));
      const all = first.summary();
      for (let i = 0; i < first.events.length; i++) {
        const from = stringAt(first.events[i]?.object, 'metadata', 'resourceVersion');
        const resumed = await watch(CM, `resourceVersion=${from}`);
        expect(resumed.summary(), `resumed after event ${i}`).toEqual(all.slice(i + 1));
      }
    });

    it('without a resourceVersion starts with the current state as ADDED, then changes', async () => {
      await store.create(configMap('x'));
      await store.create(configMap('y'));
      const reader = await watch(CM, '');
      await update('x', { k: '1' });
      expect(reader.summary()).toEqual(['ADDED x', 'ADDED y', 'MODIFIED x']);
    });

    it('sendInitialEvents=true ends the initial state with a bookmark annotated k8s.io/initial-events-end', async () => {
      await store.create(configMap('x'));
      const reader = await watch(CM, 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true');
      await store.create(configMap('z'));
      expect(reader.events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK', 'ADDED']);
      const bookmark = reader.events[1]?.object;
      expect(stringAt(bookmark, 'metadata', 'annotations', 'k8s.io/initial-events-end')).toBe('true');
      const resumed = await watch(CM, `resourceVersion=${stringAt(bookmark, 'metadata', 'resourceVersion')}`);
      expect(resumed.summary()).toEqual(['ADDED z']);
    });

    it("resumes after a restart from any position issued before it, without losing or repeating an event", async () => {
      await serveDurable();
      const version = await listVersion(CM);
      const before = await watch(CM, `resourceVersion=${version}`);
      await store.create(configMap('a'));
      await store.create(configMap('b'));
      await update('a', { k: '1' });
      await serveDurable();
      await store.create(configMap('c'));
      await store.delete(cmKey('b'));
      const all = ['ADDED a', 'ADDED b', 'MODIFIED a', 'ADDED c', 'DELETED b'];
      expect((await watch(CM, `resourceVersion=${version}`)).summary()).toEqual(all);
      for (let i = 0; i < before.events.length; i++) {
        const from = stringAt(before.events[i]?.object, 'metadata', 'resourceVersion');
        expect((await watch(CM, `resourceVersion=${from}`)).summary(), `resumed after event ${i}`).toEqual(all.slice(i + 1));
      }
    });

    it('catches up at restart with what the store changed while no log listened (a crash before the journal line)', async () => {
      await serveDurable();
      await store.create(configMap('kept'));
      await store.create(configMap('removed'));
      const version = await listVersion(CM);
      stop();
      await store.create(configMap('unseen'));
      await update('kept', { k: 'unseen' });
      await store.delete(cmKey('removed'));
      await serveDurable();
      const resumed = await watch(CM, `resourceVersion=${version}`);
      expect(resumed.summary()).toEqual(['ADDED unseen', 'MODIFIED kept', 'DELETED removed']);
      await store.create(configMap('later'));
      expect(resumed.summary().at(-1)).toBe('ADDED later');
    });

    it('answers 410 Gone after a restart for a position the kept history had already dropped', async () => {
      await serveDurable({ maxEntries: 2 });
      const version = await listVersion(CM);
      for (const n of ['a', 'b', 'c']) await store.create(configMap(n));
      const kept = await listVersion(CM);
      await serveDurable({ maxEntries: 2 });
      expect((await get(CM, `watch=true&resourceVersion=${version}`)).status).toBe(410);
      await store.create(configMap('d'));
      expect((await watch(CM, `resourceVersion=${kept}`)).summary()).toEqual(['ADDED d']);
    });

    it('sends periodic bookmarks whose resourceVersion resumes without a loss', async () => {
      serve({ bookmarkIntervalMs: 20 });
      const reader = await watch(CM, `resourceVersion=${await listVersion(CM)}&allowWatchBookmarks=true`);
      await store.create(configMap('m'));
      await eventually('a bookmark after the change', async () => (reader.events.at(-1)?.type === 'BOOKMARK' ? true : undefined), { timeoutMs: 10_000, intervalMs: 10 });
      const bookmark = reader.events.at(-1)?.object;
      expect(Object.keys(bookmark ?? {}).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
      expect(stringAt(bookmark, 'kind')).toBe('ConfigMap');
      await store.create(configMap('n'));
      const resumed = await watch(CM, `resourceVersion=${stringAt(bookmark, 'metadata', 'resourceVersion')}`);
      expect(resumed.summary()).toEqual(['ADDED n']);
    });

    it('sends no bookmark unless the client allows them', async () => {
      serve({ bookmarkIntervalMs: 5 });
      const allowed = await watch(CM, `resourceVersion=${await listVersion(CM)}&allowWatchBookmarks=true`);
      const reader = await watch(CM, `resourceVersion=${await listVersion(CM)}`);
      await eventually('a bookmark to the watch that allows them', async () => (allowed.events.length > 1 ? true : undefined), { timeoutMs: 10_000, intervalMs: 10 });
      expect(reader.events).toEqual([]);
    });

    it.each([
      ['a resourceVersion from before this log began', '1'],
      ['a resourceVersion never issued', '9000000000000000'],
    ])('answers 410 Gone with an Expired Status for %s', async (_what, version) => {
      const response = await get(CM, `watch=true&resourceVersion=${version}`);
      expect(response.status).toBe(410);
      expect(JSON.parse(response.body)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
      expect(response.stream).toBeUndefined();
    });

    it('answers 410 Gone once a position has fallen out of the retained history', async () => {
      serve({}, { maxEntries: 3 });
      const version = await listVersion(CM);
      for (const n of ['a', 'b', 'c', 'd']) await store.create(configMap(n));
      expect((await get(CM, `watch=true&resourceVersion=${version}`)).status).toBe(410);
      const reader = await watch(CM, `resourceVersion=${await listVersion(CM)}`);
      await store.create(configMap('e'));
      expect(reader.summary()).toEqual(['ADDED e']);
    });

    it.each([
      ['resourceVersion=abc', 400, 'resourceVersion'],
      ['timeoutSeconds=-1', 400, 'timeoutSeconds'],
      ['allowWatchBookmarks=maybe', 400, 'allowWatchBookmarks'],
      ['sendInitialEvents=true', 422, 'resourceVersionMatch'],
      ['resourceVersionMatch=Exact', 422, 'resourceVersionMatch'],
    ])('refuses %s with %i naming the field', async (query, code, field) => {
      const response = await get(CM, `watch=true&${query}`);
      expect(response.status).toBe(code);
      expect(JSON.stringify(JSON.parse(response.body).details?.causes)).toContain(field);
    });

    it('answers 404 for a watch on a path that does not exist', async () => {
      expect((await get('/apis/cluster.x-k8s.io/v1beta2/namespaces/ns1/nonsense', 'watch=true')).status).toBe(404);
    });

    it('ends the watch when timeoutSeconds has passed', async () => {
      const reader = await watch(CM, 'timeoutSeconds=1');
      await eventually('the watch to end', async () => (reader.ended ? true : undefined), { timeoutMs: 20_000, intervalMs: 50 });
      expect(hub.openWatches()).toBe(0);
    });

    it('follows label selectors across changes: ADDED when an object starts matching, DELETED when it stops', async () => {
      await store.create(configMap('l', { tier: 'a' }));
      const reader = await watch(CM, `resourceVersion=${await listVersion(CM)}&labelSelector=tier%3Db`);
      await update('l', { k: '1' }, { tier: 'b' });
      await update('l', { k: '2' }, { tier: 'b' });
      await update('l', { k: '3' }, { tier: 'c' });
      await store.create(configMap('other', { tier: 'a' }));
      expect(reader.summary()).toEqual(['ADDED l', 'MODIFIED l', 'DELETED l']);
    });

    it('watches one namespace, all namespaces, and one name through fieldSelector', async () => {
      const version = await listVersion(ALL_CM);
      const one = await watch(CM, `resourceVersion=${version}`);
      const all = await watch(ALL_CM, `resourceVersion=${version}`);
      const named = await watch(ALL_CM, `resourceVersion=${version}&fieldSelector=metadata.name%3Dq`);
      await store.create(configMap('q'));
      await store.create({ ...configMap('q'), metadata: { name: 'q', namespace: 'ns2' } });
      await store.create(configMap('r'));
      expect(one.summary()).toEqual(['ADDED q', 'ADDED r']);
      expect(all.summary()).toEqual(['ADDED q', 'ADDED q', 'ADDED r']);
      expect(named.summary()).toEqual(['ADDED q', 'ADDED q']);
    });

    it('never sends Secret data, to any caller', async () => {
      const reader = await watch(SECRETS, '');
      await store.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns1' }, type: 'Opaque', data: { password: Buffer.from('hunter2').toString('base64') } });
      expect(reader.summary()).toEqual(['ADDED s']);
      expect(reader.events[0]?.object.data).toBeUndefined();
      expect(JSON.stringify(reader.events)).not.toContain(Buffer.from('hunter2').toString('base64'));
    });

    it('drops a client that stops reading once its queue is full, keeping nothing for it', async () => {
      serve({ maxPendingBytes: 4096 });
      const stalled = new Reader(false);
      await watch(CM, `resourceVersion=${await listVersion(CM)}`, stalled);
      const healthy = await watch(CM, `resourceVersion=${await listVersion(CM)}`);
      for (let i = 0; i < 40; i++) await store.create(configMap(`p${i}`, {}, { filler: 'x'.repeat(200) }));
      expect(stalled.ended).toBe(true);
      expect(stalled.events.length).toBe(1);
      expect(healthy.summary()).toHaveLength(40);
      expect(hub.openWatches()).toBe(1);
    });

    it('refuses a watch past the limit on open watches with 429', async () => {
      serve({ maxWatches: 2 });
      await watch(CM, '');
      await watch(CM, '');
      const response = await get(CM, 'watch=true');
      expect(response.status).toBe(429);
      expect(JSON.parse(response.body)).toMatchObject({ kind: 'Status', code: 429 });
    });

    it('releases a watch the client cancels', async () => {
      const response = await get(CM, 'watch=true');
      const reader = new Reader();
      response.stream?.start(reader);
      expect(hub.openWatches()).toBe(1);
      response.stream?.cancel();
      await store.create(configMap('after-cancel'));
      expect(reader.events).toEqual([]);
      expect(hub.openWatches()).toBe(0);
      expect(hub.log.subscribers()).toBe(0);
    });
  });
}
