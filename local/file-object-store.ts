import { closeSync, existsSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { join } from 'node:path';
import { isRecord } from '../shared/contracts/json.js';
import { keyOf, keyString, parseKeyString, type ObjectKey, type StoredObject } from '../shared/contracts/object.js';
import type { Clock } from '../shared/ports/clock.js';
import { MemoryObjectStore } from '../shared/store/memory-store.js';
import type { ObjectJournal } from '../shared/store/object-journal.js';
import { noteIssuedResourceVersion } from '../shared/store/resource-version.js';
import { isStoredObject } from '../shared/store/stored-object.js';
import { parseJsonLine } from './json-line.js';

export const OBJECT_JOURNAL_FILE = 'objects.jsonl';
const FORMAT = 'capless-objects/1';
/** Compact once this many lines were appended and they outnumber the live objects twice over. */
const DEFAULT_COMPACT_AFTER_LINES = 50_000;
/** A snapshot is written, and a journal read, in chunks of about this many characters (one system call each). */
const SNAPSHOT_CHUNK = 1 << 20;

export interface FileObjectStoreOptions {
  clock?: Clock;
  /** Appended lines before a compaction is considered (tests lower it). Default 50,000. */
  compactAfterLines?: number;
}

export interface FileObjectStore {
  store: MemoryObjectStore;
  /** Lines of the file that could not be read at open (a torn last line after a crash, or damage): dropped. */
  droppedLines: number;
  close(): void;
}

/**
 * The embedded default store (ADR 0131): the in-memory store, durable through a JSON-lines file
 * in the data directory. The file holds a header line, then one line per write: `{"put":object}`
 * or `{"del":"group/kind/namespace/name"}`; replaying it in order gives the store. Appends are
 * synchronous writes to an open descriptor, made before the write is visible to anyone, so a
 * change a reconciler or watcher has seen survives the process being killed (like dynalite's
 * LevelDB, it is not fsynced: a power cut can lose the newest writes). The file is rewritten as a
 * snapshot of the live objects at open and whenever the appended lines outgrow it; a snapshot goes
 * to a temporary file renamed over the old one, so a crash leaves one or the other whole. Reading
 * stops at the first line that does not parse (a torn append); the snapshot at open drops it.
 */
export function openFileObjectStore(dataDir: string, options: FileObjectStoreOptions = {}): FileObjectStore {
  const path = join(dataDir, OBJECT_JOURNAL_FILE);
  const loaded = readJournal(path);
  for (const obj of loaded.objects.values()) noteIssuedResourceVersion(obj.metadata.resourceVersion);
  const journal = new FileObjectJournal(path, options.compactAfterLines ?? DEFAULT_COMPACT_AFTER_LINES);
  const store = new MemoryObjectStore({ ...(options.clock ? { clock: options.clock } : {}), initial: loaded.objects.values(), journal });
  journal.snapshotOf(store);
  return { store, droppedLines: loaded.droppedLines, close: () => journal.close() };
}

class FileObjectJournal implements ObjectJournal {
  private fd: number | undefined;
  private appended = 0;
  private torn = false;
  private source: MemoryObjectStore | undefined;

  constructor(
    private readonly path: string,
    private readonly compactAfterLines: number,
  ) {}

  /** Writes `store` as the file's whole content and keeps it as what later compactions snapshot. */
  snapshotOf(store: MemoryObjectStore): void {
    this.source = store;
    this.compact();
  }

  put(obj: StoredObject): void {
    this.append(`{"put":${JSON.stringify(obj)}}\n`);
  }

  remove(key: ObjectKey): void {
    this.append(`{"del":${JSON.stringify(keyString(key))}}\n`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private append(line: string): void {
    // Compacting first snapshots the store as it was before this write; the write's line follows.
    // After a short write (a full disk) the file ends in a torn line: a snapshot replaces it first.
    if (this.torn || (this.source && this.appended >= this.compactAfterLines && this.appended > 2 * this.source.size)) this.compact();
    this.fd ??= openSync(this.path, 'a', 0o600);
    const bytes = Buffer.from(line, 'utf8');
    const written = writeSync(this.fd, bytes);
    if (written !== bytes.length) {
      this.torn = true;
      throw new Error(`the object journal took ${written} of ${bytes.length} bytes; the write is refused`);
    }
    this.appended++;
  }

  private compact(): void {
    if (!this.source) return;
    this.close();
    const temporary = `${this.path}.tmp`;
    const fd = openSync(temporary, 'w', 0o600);
    try {
      let chunk = `${JSON.stringify({ format: FORMAT })}\n`;
      for (const obj of this.source.storedObjects()) {
        chunk += `{"put":${JSON.stringify(obj)}}\n`;
        if (chunk.length >= SNAPSHOT_CHUNK) {
          writeSync(fd, chunk);
          chunk = '';
        }
      }
      writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
    this.appended = 0;
    this.torn = false;
  }
}

interface LoadedJournal {
  objects: Map<string, StoredObject>;
  droppedLines: number;
}

function readJournal(path: string): LoadedJournal {
  const objects = new Map<string, StoredObject>();
  if (!existsSync(path)) return { objects, droppedLines: 0 };
  let header = true;
  let droppedLines = 0;
  for (const line of linesOf(path)) {
    if (header) {
      const parsed = parseJsonLine(line);
      if (!isRecord(parsed) || parsed.format !== FORMAT) throw notAJournal(path);
      header = false;
      continue;
    }
    const entry = droppedLines === 0 ? parseEntry(parseJsonLine(line)) : undefined;
    if (!entry) {
      droppedLines++;
      continue;
    }
    if (entry.type === 'put') objects.set(keyString(keyOf(entry.object)), entry.object);
    else objects.delete(keyString(entry.key));
  }
  if (header) throw notAJournal(path);
  return { objects, droppedLines };
}

function notAJournal(path: string): Error {
  return new Error(`${path} is not a capless object journal (${FORMAT}); move it away to start with an empty store`);
}

/** The file's lines, read a chunk at a time (a journal may be larger than one string can hold). */
function* linesOf(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(SNAPSHOT_CHUNK);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      const lines = (rest + decoder.write(buffer.subarray(0, read))).split('\n');
      rest = lines.pop() ?? '';
      yield* lines;
    }
    rest += decoder.end();
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}

type JournalEntry = { type: 'put'; object: StoredObject } | { type: 'del'; key: ObjectKey };

function parseEntry(value: unknown): JournalEntry | undefined {
  if (!isRecord(value)) return undefined;
  if (isStoredObject(value.put)) return { type: 'put', object: value.put };
  const key = typeof value.del === 'string' ? parseKeyString(value.del) : undefined;
  return key ? { type: 'del', key } : undefined;
}

