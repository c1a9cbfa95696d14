/** The parser has no types of its own: it returns the metric families of a Prometheus text exposition. */
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
