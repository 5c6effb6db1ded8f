import { checkedForThisRequest, sharedStorefrontChangeLog } from "./storefront-changes.server";

/**
 * Reads every storefront page repeats (the site settings, the returns setting, the active
 * categories), kept in memory and reused while the storefront change log reports no change that
 * could concern them. Any write to site_settings or categories logs a change to everything
 * (migration 0008), which is exactly when these must be read again; a product's stock alone
 * does not. Each request still waits for a check of the log that started after it arrived
 * (shared with every other request meanwhile, and with the page cache), so an owner's save shows
 * on the very next request, from any app server.
 *
 * Only for reads outside a transaction, of the whole shop's data: the caller passes the load.
 * Without a shared change log (no server running: a test calling a loader, a script), every read
 * goes to the database.
 */
type Kept = { generation: number; value: Promise<unknown> };
const kept = new Map<string, Kept>();

export async function rememberedRead<T>(key: string, load: () => Promise<T>): Promise<T> {
  const changes = sharedStorefrontChangeLog();
  // The log unreadable (an outage): read, and let the read's own failure answer.
  if (!changes || !(await checkedForThisRequest(changes))) return load();
  const hit = kept.get(key);
  if (hit && changes.isFresh(hit.generation, null)) return hit.value as Promise<T>;
  // Known from the check this request waited for: anything committed later makes a later check
  // report a change, and this copy is dropped then, even if the read below already shows it.
  const generation = changes.generation;
  const value = load();
  // Kept while still loading, so the requests that arrive meanwhile share the one read.
  const entry: Kept = { generation, value };
  kept.set(key, entry);
  try {
    return await value;
  } catch (err) {
    if (kept.get(key) === entry) kept.delete(key);
    throw err;
  }
}

/**
 * Kept per item (a product's lowest price before its reduction): one load reads every item of
 * `ids` not yet known, and a value is dropped with everything else at a change that concerns the
 * whole storefront. Only for values that change with such a change alone. An item the load did not
 * answer is remembered as having none (undefined). Never called while holding a transaction's
 * connection: the check and the load take connections of their own, and on a busy pool they would
 * wait for the one held.
 */
type KeptEach = { generation: number; values: Map<string, Promise<unknown>> };
const keptEach = new Map<string, KeptEach>();
/** Past this many items the set starts afresh: a crawler walking the whole catalogue must not grow it without end. */
const MAX_ITEMS = 50_000;

export async function rememberedReadEach<V>(
  key: string,
  ids: readonly string[],
  load: (ids: string[]) => Promise<ReadonlyMap<string, V>>,
): Promise<Map<string, V>> {
  const changes = sharedStorefrontChangeLog();
  if (!changes || !(await checkedForThisRequest(changes))) return new Map(await load([...new Set(ids)]));
  let set = keptEach.get(key);
  if (!set || !changes.isFresh(set.generation, null) || set.values.size > MAX_ITEMS) {
    set = { generation: changes.generation, values: new Map() };
    keptEach.set(key, set);
  }
  const kept = set;
  const missing = [...new Set(ids.filter((id) => !kept.values.has(id)))];
  if (missing.length > 0) {
    const loaded = load(missing);
    for (const id of missing) {
      const value = loaded.then((m) => m.get(id));
      // A failed load is not kept: the next request reads again (this one sees the error below).
      value.catch(() => {
        if (kept.values.get(id) === value) kept.values.delete(id);
      });
      kept.values.set(id, value);
    }
  }
  const values = await Promise.all(ids.map((id) => kept.values.get(id) as Promise<V | undefined>));
  const out = new Map<string, V>();
  ids.forEach((id, i) => {
    if (values[i] !== undefined) out.set(id, values[i]);
  });
  return out;
}
