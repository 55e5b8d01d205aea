/** A stack-trace frame or trace continuation (JS, JVM, Python, Go, Rust, .NET). */
export const FRAME =
  /^\s+at [\w$.<>[\]/ ]+[ (]|^\s+at \S+:\d+(?::\d+)?\)?$|^\s+File ".*", line \d+|^\s*\.\.\. \d+ (?:more|common frames omitted)|^\s+[\w./-]+\.(?:go|rs|py|java|kt|ts|js|c|cc|cpp|h):\d+|^\s+\d+: (?:0x[0-9a-f]+ - )?\S|^\s*--> \S+:\d+:\d+|^\s*\|\s|^\s*\d+\s*\|\s|^goroutine \d+ \[|^\s+\^+|^\s*[\w.]+\([\w./, *]*\)$|^\s*created by /;
