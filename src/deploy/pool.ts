// Bounded concurrency for a deploy's requests, stopping at the first failure or a stop.
/**
 * Runs `work` over `items`, at most `limit` at a time; the first failure, or `stop` aborted,
 * stops new work (the items in flight finish).
 */
export async function pool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  stop?: AbortSignal,
): Promise<void> {
  let next = 0;
  let failed: unknown;
  const worker = async () => {
    while (failed === undefined && !stop?.aborted && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (e) {
        failed ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  // After a stop, a request that failed in flight is one more pending key, not the news.
  if (failed !== undefined && !stop?.aborted) throw failed;
}
