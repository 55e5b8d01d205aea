/** Ansible's one-line task results, opened up so the error inside is a log line of its own. */
import { stripCiPrefix } from './ci-prefix.ts';

// Ansible's default callback prints a failed task's whole result as one JSON line (`fatal: [host]:
// FAILED! => {…}`, `failed: [host] (item=x) => {…}`), the command's output inside it as
// `stdout_lines` / `stderr_lines` (https://docs.ansible.com/ansible/latest/reference_appendices/common_return_values.html).
const ANSIBLE_RESULT =
  /^(?:fatal|failed): \[[^\]]*\](?: \(item=.*?\))?(?:: (?:FAILED|UNREACHABLE)!)? => \{/;
const ANSIBLE_OUTPUT_KEYS = ['msg', 'module_stderr', 'stderr_lines', 'stdout_lines'] as const;

/**
 * A long Ansible task result, followed by the lines of its message and of the command's output
 * (nested results one level deep: an `ansible-playbook` run by a task), so that the error inside
 * it is a log line of its own instead of the middle of a cut JSON line. Any other line: itself.
 */
export function expandAnsibleResult(text: string, depth = 0): string[] {
  const bare = stripCiPrefix(text);
  const m = ANSIBLE_RESULT.exec(bare);
  if (!m) return [text];
  let result: unknown;
  try {
    result = JSON.parse(bare.slice(m[0].length - 1));
  } catch {
    return [text];
  }
  if (typeof result !== 'object' || result === null) return [text];
  const prefix = text.slice(0, text.length - bare.length);
  const out = [text];
  const loop = (result as { results?: unknown }).results;
  const items = Array.isArray(loop) ? [result, ...(loop as unknown[])] : [result];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const fields = item as Record<string, unknown>;
    for (const key of ANSIBLE_OUTPUT_KEYS) {
      const value = fields[key];
      const lines = Array.isArray(value)
        ? value.filter((v): v is string => typeof v === 'string')
        : typeof value === 'string'
          ? value.split('\n')
          : [];
      for (const line of lines) {
        if (line.trim() === '') continue;
        const inner = prefix + line.trimEnd();
        out.push(...(depth < 1 ? expandAnsibleResult(inner, depth + 1) : [inner]));
      }
    }
  }
  return out;
}
