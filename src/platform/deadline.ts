/**
 * Settles with the work's value, or with `false` once `milliseconds` have passed (the work goes on unobserved;
 * its rejection is swallowed). The timer is cleared as soon as the work settles.
 */
export async function withinDeadline<T>(work: Promise<T>, milliseconds: number): Promise<T | false> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), milliseconds);
  });
  const guarded = work.catch(() => false as const);
  try {
    return await Promise.race([guarded, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
