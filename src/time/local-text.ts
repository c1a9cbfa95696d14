/**
 * 'YYYY-MM-DD hh:mm:ss' of an instant in a time zone, for exports that write a million of them (issue 19).
 * `Intl.DateTimeFormat.format` per row was the largest item of a CSV export's profile; instead each zone keeps
 * the spans between its offset transitions (from Temporal, the same time zone data), and a row adds its span's
 * offset and writes the digits itself. A zone has two spans a year at most, so a year's export looks up a few.
 */
type Span = { start: number; end: number; offsetMs: number };

const spansByZone = new Map<string, Span[]>();

function spanOf(epochMs: number, zone: string): Span {
  let spans = spansByZone.get(zone);
  if (!spans) {
    spans = [];
    spansByZone.set(zone, spans);
  }
  for (const span of spans) if (epochMs >= span.start && epochMs < span.end) return span;
  const zoned = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone);
  // The span starts at the latest transition at or before the instant: 'previous' looks strictly before, so it
  // is asked from a nanosecond later (an instant on a transition starts its span, not the one before it).
  const previous = zoned.add({ nanoseconds: 1 }).getTimeZoneTransition('previous');
  const next = zoned.getTimeZoneTransition('next');
  const span: Span = {
    start: previous ? previous.epochMilliseconds : Number.NEGATIVE_INFINITY,
    end: next ? next.epochMilliseconds : Number.POSITIVE_INFINITY,
    offsetMs: zoned.offsetNanoseconds / 1_000_000,
  };
  // A bounded list: an export that wanders over decades keeps only the latest spans of a zone.
  if (spans.length >= 64) spans.shift();
  spans.push(span);
  return span;
}

const two = (value: number) => (value < 10 ? `0${value}` : String(value));

export function localDateTimeText(at: Date, zone: string): string {
  const epochMs = at.getTime();
  const local = new Date(epochMs + spanOf(epochMs, zone).offsetMs);
  return (
    `${String(local.getUTCFullYear()).padStart(4, '0')}-${two(local.getUTCMonth() + 1)}-${two(local.getUTCDate())} ` +
    `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`
  );
}
