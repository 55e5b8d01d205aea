// Types for parse-prometheus-text-format 1.1.1, which ships none; the shape is prom2json's
// (the package's README, "Stringified result"). Values stay strings, as the text format sends them.
declare module 'parse-prometheus-text-format' {
  /** One sample (or, for summaries and histograms, one labelled series). */
  export interface ParsedSample {
    value?: string;
    labels?: Record<string, string>;
    quantiles?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  /** One metric family: its `# HELP`, its `# TYPE` (`UNTYPED` when absent) and its samples. */
  export interface ParsedFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'SUMMARY' | 'HISTOGRAM' | 'UNTYPED';
    metrics: ParsedSample[];
  }
  /** Parses the Prometheus text format; throws on a line it cannot read. */
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
