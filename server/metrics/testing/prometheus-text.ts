import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { expect } from 'vitest';

/** A parsed /metrics answer: its families (typed) and every sample by its own name. */
export interface Scraped {
  families: ParsedFamily[];
  /**
   * Samples by sample name (`x`, `x_sum`, `x_count`, `x_bucket`), labels and value each. The
   * parser folds a summary's or histogram's series into one and drops their labels (its
   * `flattenMetrics`), so these come from a second parse with the TYPE lines left out, where
   * every sample is its own untyped line, labels intact.
   */
  samples: Map<string, { labels: Record<string, string>; value: number }[]>;
}

const TYPES = ['COUNTER', 'GAUGE', 'SUMMARY', 'HISTOGRAM'];
const SUFFIXES: Record<string, string[]> = {
  SUMMARY: ['', '_sum', '_count'],
  HISTOGRAM: ['_bucket', '_sum', '_count'],
};

/**
 * Parses a /metrics answer with parse-prometheus-text-format (a port of the Prometheus Python
 * client's parser; its output is prom2json's) and checks what the text format asks of an exporter
 * (prometheus.io/docs/instrumenting/exposition_formats, "Text format details"): every family has
 * one `# HELP` and one `# TYPE` line before its samples, a known type, and samples only under its
 * own name (plus `_sum`, `_count`, `_bucket` for summaries and histograms); no family twice.
 */
export function parseMetrics(text: string): Scraped {
  const families = parsePrometheusTextFormat(text);
  const names = families.map((f) => f.name);
  expect(new Set(names).size, 'a family appears twice').toBe(names.length);
  for (const family of families) {
    expect(family.help, `${family.name} has no HELP`).not.toBe('');
    expect(TYPES, `${family.name} has no TYPE`).toContain(family.type);
  }
  // The parser tolerates a sample before its metadata (it makes an UNTYPED family, caught above);
  // read the lines too, so HELP and TYPE must come first, once each.
  const seen = new Map<string, { help: number; type: number }>();
  const typeOf = new Map(families.map((f) => [f.name, f.type]));
  for (const line of text.split('\n')) {
    const meta = /^# (HELP|TYPE) (\S+) /.exec(line);
    if (meta) {
      const entry = seen.get(meta[2]!) ?? { help: 0, type: 0 };
      if (meta[1] === 'HELP') entry.help++;
      else entry.type++;
      seen.set(meta[2]!, entry);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)![0];
    const family = [...seen.keys()].find((f) =>
      (SUFFIXES[typeOf.get(f) ?? ''] ?? ['']).some((suffix) => `${f}${suffix}` === name),
    );
    expect(family, `sample ${name} comes before its HELP and TYPE`).toBeDefined();
    expect(seen.get(family!)).toEqual({ help: 1, type: 1 });
  }
  const samples = new Map<string, { labels: Record<string, string>; value: number }[]>();
  for (const untyped of parsePrometheusTextFormat(text.replace(/^# TYPE .*$/gm, ''))) {
    const list = samples.get(untyped.name) ?? [];
    for (const m of untyped.metrics) list.push({ labels: m.labels ?? {}, value: Number(m.value) });
    samples.set(untyped.name, list);
  }
  return { families, samples };
}

/** The family named `name`, which must be there. */
export function family(scraped: Scraped, name: string): ParsedFamily {
  const found = scraped.families.find((f) => f.name === name);
  expect(found, `${name} is missing`).toBeDefined();
  return found!;
}

/** The samples named `name` (a family's own, or its `_sum`, `_count`, `_bucket`) with `labels`. */
export function samplesOf(
  scraped: Scraped,
  name: string,
  labels: Record<string, string> = {},
): { labels: Record<string, string>; value: number }[] {
  return (scraped.samples.get(name) ?? []).filter((s) =>
    Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

/** The value of the one sample named `name` with `labels`; undefined when there is none. */
export function sampleValue(
  scraped: Scraped,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samplesOf(scraped, name, labels);
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}
