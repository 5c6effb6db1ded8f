import v8 from "node:v8";
import vm from "node:vm";
import { logger } from "../../platform/index.server";

/**
 * Keeps a long import from pushing the server's memory up. V8 lets garbage pile up in the old
 * generation (batches promoted while they wait for the database) until 100+ MB before it
 * collects; during an import that garbage is all ours, so a full collection once the heap has
 * grown by `slackMb` since the import began brings it back (about 20–40 ms, every few thousand
 * rows). Without a way to collect (a runtime that refuses the flag), this does nothing.
 */
let collect: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    if (typeof globalThis.gc === "function") collect = globalThis.gc as () => void;
    else {
      v8.setFlagsFromString("--expose-gc");
      collect = vm.runInNewContext("gc") as () => void;
    }
  } catch (err) {
    logger.warn({ err }, "import: no garbage collector access; memory is left to V8's own pace");
    collect = null;
  }
  return collect;
}

/**
 * Call after each batch: collects when the heap grew by `slackMb`, but spends at most about a
 * tenth of the time collecting (the gap after a collection is ten times its length). A fixed
 * gap of a second let a fast dry run (a batch every 15 ms) pile up 70+ MB between collections.
 */
export function memoryGuard(slackMb = 32) {
  const heapUsed = () => v8.getHeapStatistics().used_heap_size;
  let base = heapUsed();
  let next = 0;
  return () => {
    if (heapUsed() - base < slackMb * 1024 * 1024 || performance.now() < next) return;
    const gc = collector();
    if (!gc) return;
    const started = performance.now();
    gc();
    next = performance.now() + Math.max(50, (performance.now() - started) * 10);
    // What is left is live: the next collection waits for as much garbage again.
    base = heapUsed();
  };
}
