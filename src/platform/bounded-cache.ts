/**
 * Small per-process caches of what is derived from a stored string (a signing secret, a URL, a device's key): up
 * to CACHE_ENTRIES entries, then the cache starts over, so a flood of new keys costs a recomputation, never memory.
 */
export const CACHE_ENTRIES = 10_000;

/** Keeps `value` under `key` and returns it. */
export function keep<K, V>(cache: Map<K, V>, key: K, value: V): V {
  if (cache.size >= CACHE_ENTRIES) cache.clear();
  cache.set(key, value);
  return value;
}

/** The value kept under `key`, derived and kept on first use. */
export function cachedIn<T>(cache: Map<string, T>, key: string, derive: (key: string) => T): T {
  const value = cache.get(key);
  return value !== undefined ? value : keep(cache, key, derive(key));
}
