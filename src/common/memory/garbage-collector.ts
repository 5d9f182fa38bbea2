/**
 * V8's collector, for the few places that make a lot of short-lived memory in one go and have
 * measured that V8 collects it too late for the process's size (bench/README.md, "Exports and
 * imports"): PNG rasters, whose pixels are native memory V8 does not count, and the list's CSV
 * export, whose batches live across the awaits of a query and a socket write long enough to be
 * promoted, so that V8 lets the old generation fill with them before a full collection.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export type CollectionType = 'minor' | 'major';

type Collect = (options?: { type: 'minor' }) => void;

/**
 * Taken from a new context once `--expose-gc` is set: the service is not started with the flag. Set
 * on the first forced collection only, so a process whose role forbids them (ROLE=api) never sets
 * the flag nor holds the collector.
 */
function exposedCollector(): Collect {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Collect;
}

let collect: Collect | undefined;
/** Off in an api process (ROLE=api): its event loop answers scans and never pauses for a forced collection. */
let forcedCollections = true;

/** Whether collectGarbage collects (the role decides at start-up: docs/operations.md#process-roles). */
export function allowForcedCollections(allowed: boolean): void {
  forcedCollections = allowed;
}

/** Whether this process exposed V8's collector (it forced a collection). */
export function collectorExposed(): boolean {
  return collect !== undefined;
}

/**
 * Runs a collection now, synchronously: a major one pauses the event loop for some tens of
 * milliseconds. A major one is `gc()` without options: Node 20's V8 reads `{ type: 'major' }` as a minor one.
 */
export function collectGarbage(type: CollectionType): void {
  if (!forcedCollections) return;
  collect ??= exposedCollector();
  if (type === 'minor') collect({ type });
  else collect();
}
