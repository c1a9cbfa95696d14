/** A measure's ratios over several runs, as min / median / max. */
export type RatioSummary = { min: number; median: number; max: number; runs: number[] };

export function summarize(ratios: number[]): RatioSummary {
  const sorted = [...ratios].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median =
    sorted.length % 2 === 1
      ? (sorted[Math.floor(middle)] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { min: sorted[0] ?? Number.NaN, median, max: sorted.at(-1) ?? Number.NaN, runs: ratios };
}

/** `name: 0.61 / 0.64 / 0.70 (min / median / max of 3 runs), goal at least 0.6: met`. */
export function ratioLine(
  name: string,
  summary: RatioSummary,
  goal: number,
  sense: 'at least' | 'at most',
): string {
  const met = sense === 'at least' ? summary.median >= goal : summary.median <= goal;
  const figures = [summary.min, summary.median, summary.max].map((value) => value.toFixed(2)).join(' / ');
  return `${name}: ${figures} (min / median / max of ${summary.runs.length} runs), goal ${sense} ${goal}: ${met ? 'met' : 'MISSED'}`;
}
