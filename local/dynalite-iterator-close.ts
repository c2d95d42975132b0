import { createRequire } from 'node:module';

/**
 * Works around a leak in dynalite 4.0.0 (ADR 0042): every Query and Scan opens a LevelDB iterator
 * (`db.values()` / `db.keys()`) behind a Readable whose `destroy` ends it with `iterator.return()`
 * "if present". abstract-level 3 iterators have no `return()` — they end with `close()` — so no
 * iterator is ever closed: each one stays in the database's open-resources set with its read-ahead
 * cache (and, on LevelDB, its native iterator and snapshot) until the database closes. Every list
 * grew the heap by 1–15 KB for good.
 *
 * The fix is made at load time, never by editing node_modules (CI runs `npm ci`): dynalite's
 * `index.js` calls `require('./db').create(options)` when a server is built, so wrapping that
 * export lets us give the iterators of each new store's database the `return()` dynalite calls
 * (`return` = `close`, which abstract-level makes idempotent and defers past an in-flight read).
 *
 * A store rebuilt by dynalite's own `recreate()` (only after a forced close on shutdown timeout,
 * then `listen` again: capless never does that) is not patched.
 */

const require = createRequire(import.meta.url);
/** On dynalite's db module (the CommonJS cache outlives our module under test runners' reloads). */
const PATCHED_STORES = Symbol.for('capless.dynalite.iteratorClose.patchedStores');
const ITERATOR_METHODS = ['iterator', 'keys', 'values'] as const;

type Loose = Record<PropertyKey, unknown>;

function isLoose(value: unknown): value is Loose {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

function dynaliteDbModule(): Loose {
  const module: unknown = require('dynalite/db');
  if (!isLoose(module) || typeof module.create !== 'function') {
    throw new Error("dynalite's db module has no create(): the iterator-close workaround (ADR 0042) needs updating");
  }
  return module;
}

/** Gives `db`'s iterators the `return()` dynalite's streams call on destroy. */
function closeIteratorsOnReturn(db: unknown): void {
  if (!isLoose(db)) throw new Error('dynalite store has no db: the iterator-close workaround (ADR 0042) needs updating');
  for (const method of ITERATOR_METHODS) {
    const open = db[method];
    if (typeof open !== 'function') throw new Error(`dynalite's LevelDB has no ${method}(): the iterator-close workaround (ADR 0042) needs updating`);
    db[method] = (...args: unknown[]): unknown => {
      const iterator: unknown = Reflect.apply(open, db, args);
      if (isLoose(iterator) && typeof iterator.return !== 'function') {
        const close = iterator.close;
        if (typeof close === 'function') iterator.return = () => Reflect.apply(close, iterator, []);
      }
      return iterator;
    };
  }
}

/** Installs the workaround (idempotent). */
export function installDynaliteIteratorClose(): void {
  const module = dynaliteDbModule();
  if (typeof module[PATCHED_STORES] === 'number') return;
  const create = module.create;
  if (typeof create !== 'function') return;
  module[PATCHED_STORES] = 0;
  module.create = function createClosingIterators(this: unknown, ...args: unknown[]): unknown {
    const store: unknown = Reflect.apply(create, this, args);
    closeIteratorsOnReturn(isLoose(store) ? store.db : undefined);
    module[PATCHED_STORES] = dynalitePatchedStores() + 1;
    return store;
  };
}

/** How many dynalite stores were built with the workaround in place (lets callers check it took). */
export function dynalitePatchedStores(): number {
  const count = dynaliteDbModule()[PATCHED_STORES];
  return typeof count === 'number' ? count : 0;
}
