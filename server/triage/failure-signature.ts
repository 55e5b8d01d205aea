// A failure's signature: the job's decisive error line, as the distiller and the offline
// analyser elect it, with what varies between runs masked, plus the root-cause category. The same
// registry outage in three projects, or an expired token in every deploy job, reads as one.
import { lineTemplate } from '../ai/distill/green-diff.ts';
import { distillLog } from '../ai/distill/log-distiller.ts';
import type { FailureCategory } from '../ai/distill/rules/rule.ts';
import { diagnose } from '../ai/offline/diagnosis.ts';

/** What a failed job's log says, reduced to what it shares with the same failure elsewhere. */
export interface LogSignature {
  /** `<category>: <masked decisive line>`: equal for the same error in any run or project. */
  signature: string;
  /** The decisive line as printed (CI prefixes removed). */
  sampleLine: string;
  category: FailureCategory;
}

// The distiller's budget for a signature: the decisive lines are found before the budget is spent,
// so a small excerpt costs less and elects the same line.
const SIGNATURE_BUDGET_CHARS = 8_000;
/** Longest masked line kept: the head of a line names the error, its tail is usually data. */
const MAX_SIGNATURE_CHARS = 200;
/** Longest sample kept. */
const MAX_SAMPLE_CHARS = 500;

// Masked before lineTemplate, whose masks would otherwise eat the parts worth keeping (a URL's
// host says which registry is down) or leave variable parts readable.
const URL = /\b([a-z][a-z0-9+.-]*:\/\/)([^/\s:'"<>)\]]+)(?::\d+)?(\/[^\s'"<>)\]]*)?/gi;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g;
// Bracketed IPv6 literals and bare ones with at least three groups (`::1` alone is a loopback
// word, left to the number mask).
const IPV6 = /\[[0-9a-f:]+\](?::\d{1,5})?|\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b/gi;
// `localhost:8080`: the port varies (random ports in tests), the host does not.
const PORT = /(?<=\blocalhost):\d{1,5}\b/gi;
const IS_IP = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\])$/i;
// Go, Rust and Java durations (`1m32.5s`, `250ms`, `PT1.5S`) and ISO times lineTemplate misses.
const DURATION = /\b(?:\d+h)?(?:\d+m(?!s))?\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h)\b/g;
// Long random tokens (request ids, temp names, base64 digests): letters with four digits or more.
// Test and symbol names (`test_parse_v2_headers`) rarely carry that many digits, so they stay;
// hexadecimal hashes are lineTemplate's.
const TOKEN = /(?<![\w/\\.-])[A-Za-z0-9-]{16,}\b/g;
const isRandomToken = (t: string) => (t.match(/\d/g)?.length ?? 0) >= 4 && /[g-z]/i.test(t);

/**
 * The masked form of a decisive line: timestamps, UUIDs, hashes, paths, numbers (lineTemplate,
 * the distiller's own masks for "same as green"), plus IP addresses, ports, durations, URLs' paths
 * and long random tokens. The words of the message stay.
 */
export function maskLine(line: string): string {
  const masked = line
    .replace(URL, (_m, scheme: string, host: string, _path?: string) =>
      IS_IP.test(host)
        ? `${scheme}<ip>${_path ? '/<p>' : ''}`
        : `${scheme}${host.toLowerCase()}${_path && _path !== '/' ? '/<p>' : ''}`,
    )
    .replace(IPV4, '<ip>')
    .replace(IPV6, '<ip>')
    .replace(PORT, ':<port>')
    .replace(DURATION, '<d>')
    .replace(TOKEN, (t) => (isRandomToken(t) ? '<id>' : t));
  // lineTemplate masks digits left anywhere; the placeholders above carry none.
  return lineTemplate(masked).slice(0, MAX_SIGNATURE_CHARS);
}

/**
 * The signature of a failed job's raw log, or null when the log names no error at all (empty, or
 * cut before anything was printed). The decisive line is the offline analyser's main evidence —
 * the distiller's decisive line that elected the category, else what the failing command printed
 * last — so the signature, the analysis and the dashboard's error lines agree.
 */
export function failureSignature(rawLog: string): LogSignature | null {
  if (rawLog.trim() === '') return null;
  const distilled = distillLog(rawLog, { budgetChars: SIGNATURE_BUDGET_CHARS });
  const diagnosis = diagnose(distilled);
  const main = diagnosis.evidence[0];
  if (!main) return null;
  const sample = main.message.trim() || main.text.trim();
  const masked = maskLine(sample);
  if (masked === '') return null;
  return {
    signature: `${diagnosis.category}: ${masked}`,
    sampleLine: sample.slice(0, MAX_SAMPLE_CHARS),
    category: diagnosis.category,
  };
}
