import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../shared/contracts/json.js';
import { isResourceVersion } from '../shared/store/resource-version.js';
import { type ChangeJournal, type JournalContents, type JournalRecord, parseJournalRecord } from '../shared/watch/change-journal.js';
import { parseJsonLine } from './json-line.js';

export const CHANGE_JOURNAL_FILE = 'watch-journal.jsonl';

/**
 * The change journal as a JSON-lines file in the data directory (ADR 0081): a header line
 * (`origin`, `evictedThrough`), then one line per change. Appends are synchronous writes to an
 * open descriptor (in the OS's hands before a watcher hears of the change); a compaction writes a
 * temporary file and renames it over the old one. A torn last line (a crash mid-append) and
 * anything after a line that does not parse are ignored; a file with no usable header is no journal.
 */
export class FileChangeJournal implements ChangeJournal {
  private readonly path: string;
  private fd: number | undefined;

  constructor(dataDir: string) {
    this.path = join(dataDir, CHANGE_JOURNAL_FILE);
  }

  load(): JournalContents | undefined {
    if (!existsSync(this.path)) return undefined;
    const lines = readFileSync(this.path, 'utf8').split('\n');
    const header = parseJsonLine(lines[0] ?? '');
    if (!isRecord(header) || typeof header.origin !== 'string' || !isResourceVersion(header.origin)) return undefined;
    const evictedThrough = typeof header.evictedThrough === 'number' && Number.isSafeInteger(header.evictedThrough) ? header.evictedThrough : 0;
    const records: JournalRecord[] = [];
    for (const line of lines.slice(1)) {
      const record = parseJournalRecord(parseJsonLine(line));
      // Sequence numbers run on without a gap; anything else is a torn or foreign tail.
      if (!record || record.seq !== (records.at(-1)?.seq ?? evictedThrough) + 1) break;
      records.push(record);
    }
    return { origin: header.origin, evictedThrough, records };
  }

  append(record: JournalRecord): void {
    this.fd ??= openSync(this.path, 'a', 0o600);
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
  }

  rewrite(contents: JournalContents): void {
    this.closeFile();
    const lines = [JSON.stringify({ origin: contents.origin, evictedThrough: contents.evictedThrough }), ...contents.records.map((r) => JSON.stringify(r))];
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, `${lines.join('\n')}\n`, { mode: 0o600 });
    renameSync(temporary, this.path);
  }

  close(): void {
    this.closeFile();
  }

  private closeFile(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

