// A formatter run in check mode fails by listing the files it would change; the fix is the same
// formatter in write mode, run locally and committed. Each rewrite follows the tool's own docs:
// terraform fmt (-check lists, without it rewrites), prettier (--check / --write), black and
// ruff format (--check / none), gofmt (-l lists, -w writes), cargo fmt (--check / none),
// dotnet format (--verify-no-changes / none), mix format (--check-formatted / none),
// clang-format (--dry-run / -i).

interface FormatCheck {
  /** The check-mode command, matched anywhere in the failing command. */
  check: RegExp;
  /** The write-mode command made from the matched check command. */
  write: (matched: string) => string;
}

const CHECKS: readonly FormatCheck[] = [
  {
    check: /\bterraform fmt\b[^;&|\n]*?-check\b[^;&|\n]*/,
    write: (m) => m.replace(/\s+-check\b/, '').replace(/\s+-diff\b/, ''),
  },
  {
    check:
      /(?:\b(?:npx|yarn|pnpm(?: exec| dlx)?) )?\bprettier\b[^;&|\n]*?(?:--check|-c|--list-different|-l)\b[^;&|\n]*/,
    write: (m) => m.replace(/\s(?:--check|-c|--list-different|-l)\b/, ' --write'),
  },
  {
    check: /\b(?:black|ruff format)\b[^;&|\n]*?--check\b[^;&|\n]*/,
    write: (m) => m.replace(/\s+--check\b/, '').replace(/\s+--diff\b/, ''),
  },
  // Inside `$(…)` or quotes (`test -z "$(gofmt -l .)"`), the command ends at the bracket.
  { check: /\bgofmt\b[^;&|\n)"]*?-l\b[^;&|\n)"]*/, write: (m) => m.replace(/\s-l\b/, ' -w') },
  {
    check: /\bcargo fmt\b[^;&|\n]*?--check\b[^;&|\n]*/,
    write: (m) => m.replace(/\s+--\s+--check\b/, '').replace(/\s+--check\b/, ''),
  },
  {
    check: /\bdotnet format\b[^;&|\n]*?--verify-no-changes\b[^;&|\n]*/,
    write: (m) => m.replace(/\s+--verify-no-changes\b/, ''),
  },
  {
    check: /\bmix format\b[^;&|\n]*?--check-formatted\b[^;&|\n]*/,
    write: (m) => m.replace(/\s+--check-formatted\b/, ''),
  },
  {
    check: /\bclang-format\b[^;&|\n]*?--dry-run\b[^;&|\n]*/,
    write: (m) => m.replace(/\s+--dry-run\b/, ' -i').replace(/\s+(?:-Werror|--Werror)\b/, ''),
  },
];

/**
 * The formatter in write mode for a failing formatter check (`terraform fmt -check -recursive` →
 * `terraform fmt -recursive`), or undefined when the command is no formatter check.
 */
export function formatFix(cmd: string): string | undefined {
  for (const c of CHECKS) {
    const m = c.check.exec(cmd);
    if (m) return c.write(m[0].trim()).replace(/\s{2,}/g, ' ');
  }
  return undefined;
}
