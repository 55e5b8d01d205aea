// What a job was doing when it stopped is often one thing done many times by many parts: a client
// retrying (`[api] retrying request 3 after 1500ms`, `[web] retrying request 4 after 2000ms`), a
// build compiling module after module (`[3 of 4] Compiling System.Random.TF`), a test runner failing
// test after test. Quoted one per line they crowd out everything else; folded, they are one
// activity with a count.

// A bracketed or parenthesised group is one token (`[functoria: git]`, `(test.TestDownload)`).
const TOKEN = /\[[^\]]*\]|\([^)]*\)|\S+/g;
// Ids: hex runs with a digit in them (commit and object ids, instance ids, digests).
const HEX_ID = /[0-9a-f]{6,}/gi;
// Words that say how a thing went: two lines that differ here are two outcomes, not one activity.
const OUTCOME =
  /^(?:error|errors|fail|failed|failure|fatal|ok|pass|passed|success|succeeded|skip|skipped|warn|warning|info|debug|trace|notice|done|started|finished|timeout|timed|true|false|yes|no|up|down)$/i;

/** A line's tokens with numbers and ids made alike (`#`). */
function tokensOf(line: string): string[] {
  return (line.trim().match(TOKEN) ?? []).map((t) =>
    t.replace(HEX_ID, (id) => (/\d/.test(id) ? '#' : id)).replace(/\d+/g, '#'),
  );
}

/** A token that names a thing (a component, a module, a test, a file): never an outcome word. */
function namesAThing(token: string): boolean {
  const bare = token.replace(/^[[(]|[\])]?:?$/g, '');
  if (OUTCOME.test(bare)) return false;
  return /^[[(]/.test(token) || /:$/.test(token) || /[_./@-]/.test(bare) || /[a-z][A-Z]/.test(bare);
}

/**
 * Whether two log lines record the same activity: equal once numbers and ids are set aside, or
 * differing only where each names a thing (a component label, a module, a test, a URL), with a
 * word in common to say what the activity is.
 */
export function sameActivity(a: string, b: string): boolean {
  const ta = tokensOf(a);
  const tb = tokensOf(b);
  if (ta.length !== tb.length) return false;
  let shared = 0;
  for (let i = 0; i < ta.length; i++) {
    if (ta[i] === tb[i]) {
      if (/[a-z]{2}/i.test(ta[i]!)) shared++;
    } else if (!namesAThing(ta[i]!) || !namesAThing(tb[i]!)) return false;
  }
  return shared >= 1 || ta.join(' ') === tb.join(' ');
}
