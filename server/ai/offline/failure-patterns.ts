// Failure wording that both the diagnosis (choosing a category) and the advice (choosing what to
// say) read, kept in one place so the two cannot drift apart.

/** A registry or mirror that could not be reached (not a version that cannot be resolved). */
export const NETWORK =
  /ECONN|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|Could(?: not|n't) resolve host|Could not reach host|Temporary failure (?:in name|resolving)|Name or service not known|i\/o timeout|Connection (?:refused|reset)|Connect(?:ion)? timeout|\b50[234]\b|TLS handshake|SSL connect error|socket hang up|unreachable|Failed to connect|Read timed out/i;

/** A version or package that cannot be resolved (not a network failure). */
export const RESOLUTION =
  /\bERESOLVE\b|peer dep|nothing provides|No match for argument|version solving failed|No matching (?:version|distribution)|could not find a version|ResolutionImpossible|unsatisfiable|conflicting (?:peer )?dependenc|unresolvable/i;
