// Where in the project a failure points: file, line and column from the formats tools print them
// in, preferring the project's own files to a library's, and the suggestion a tool made itself.

/** A place in a source file that a log line names. */
export interface SourceLocation {
  file: string;
  line: number;
  column?: number | undefined;
  /** Which format it was read from (`terraform`, `file:line`, `python-traceback` …). */
  format: string;
}

/** `file:line[:column]`, as the analyser quotes it. */
export const formatLocation = (l: SourceLocation): string =>
  `${l.file}:${l.line}${l.column !== undefined ? `:${l.column}` : ''}`;

// Paths inside installed packages, toolchains and runtimes: a library's frame, not the project's.
// Node's own modules read `internal/modules/cjs/loader.js`; a Go project's `internal/` is its own.
const LIBRARY_PATH =
  /node_modules|site-packages|dist-packages|^\/usr\/|^\/opt\/(?:conda|hostedtoolcache)|hostedtoolcache|\.cargo\/registry|\/go\/pkg\/mod|\/\.m2\/|<frozen|<string>|^node:|^internal\/.*\.js$|\/rustc\/|\/lib\/python\d|\/lib64?\/|\/\.rustup\/|\/\.gradle\/caches|\/pnpm\/|\.pnpm\//;
// JVM and .NET frames of the runtime, test frameworks and common libraries.
const LIBRARY_CLASS =
  /^(?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|groovy|org\.junit|junit|org\.opentest4j|org\.testng|org\.springframework|org\.apache|org\.gradle|worker\.org\.gradle|org\.mockito|org\.assertj|org\.hamcrest|com\.google|io\.netty|reactor|org\.codehaus|net\.bytebuddy|org\.jetbrains|org\.eclipse|io\.micronaut|io\.quarkus|akka|cats|zio)\.|^(?:System|Microsoft|Xunit|NUnit|Castle|Moq|FluentAssertions)\./;

const EXT =
  'tsx?|jsx?|mjs|cjs|mts|cts|vue|svelte|py|pyi|go|rs|java|kt|kts|scala|groovy|rb|cs|fs|vb|cpp|cc|cxx|c|h|hh|hpp|m|mm|swift|php|ex|exs|erl|hs|ml|dart|lua|pl|pm|r|R|jl|zig|nim|sol|ya?ml|tf|tfvars|hcl|json|toml|gradle|xml|sh|bash|proto|sql|css|scss|less|html|cmake';
const PATH = String.raw`(?:[A-Za-z]:[\\/])?(?:\.{0,2}\/)?(?:[\w@.+~$-]+[\\/])*[\w@.+$-]+\.(?:${EXT})`;

// One-line formats, most specific first: a line matched by one is not read by the later ones.
const ONE_LINE: readonly { format: string; re: RegExp }[] = [
  // `│   on modules/rds-module/main.tf line 152, in resource …:`
  {
    format: 'terraform',
    re: new RegExp(String.raw`\bon (${PATH}) line (\d+)(?:,|:|\s|$)`),
  },
  // `[ERROR] /builds/app/src/main/java/App.java:[12,5] cannot find symbol`
  { format: 'maven', re: new RegExp(String.raw`(${PATH}):\[(\d+),(\d+)\]`) },
  // .NET: `at App.Service.Run() in /src/App/Service.cs:line 42`
  {
    format: 'dotnet-frame',
    re: new RegExp(String.raw`^\s*at (\S+?)\(.*?\) in (${PATH}):line (\d+)`),
  },
  // Python: `  File "/builds/app/app/views.py", line 42, in get`
  { format: 'python-frame', re: new RegExp(String.raw`^\s*File "([^"]+)", line (\d+)`) },
  // JVM: `at com.acme.shop.PriceTest.appliesDiscount(PriceTest.java:42)`
  {
    format: 'jvm-frame',
    re: /^\s*at ([\w$.<>/]+)\(([\w$-]+\.(?:java|kt|scala|groovy|clj)):(\d+)\)/,
  },
  // JS: `at Object.<anonymous> (/builds/app/src/cart.test.ts:12:5)` or `at /builds/app/x.js:3:9`
  {
    format: 'js-frame',
    re: new RegExp(String.raw`^\s*at (?:.+? \()?(?:file:\/\/)?(${PATH}):(\d+):(\d+)\)?\s*$`),
  },
  // tsc (old style), MSBuild, C#: `src/app.ts(12,5): error TS2322` / `Program.cs(12,5): error CS0103`
  { format: 'file(line,col)', re: new RegExp(String.raw`(?:^|[\s'"\`])(${PATH})\((\d+),(\d+)\)`) },
  // GCC, Clang, Go, Rust's `-->`, tsc, mypy, ruff, ESLint's unix format: `file:line[:col]`
  {
    format: 'file:line',
    re: new RegExp(String.raw`(?:^|[\s'"\`(\[])(${PATH}):(\d+)(?::(\d+))?(?=[:\s,)\]]|$)`),
  },
];

const FRAME_FORMATS = new Set(['python-frame', 'jvm-frame', 'js-frame', 'dotnet-frame']);

interface Found extends SourceLocation {
  library: boolean;
  index: number;
}

function readLine(text: string, index: number): Found | undefined {
  for (const { format, re } of ONE_LINE) {
    const m = re.exec(text);
    if (!m) continue;
    if (format === 'jvm-frame') {
      // The package gives the folder: `com.acme.shop.PriceTest.run` → com/acme/shop/PriceTest.java.
      const parts = m[1]!.split('.');
      const dir = parts.slice(0, -2).join('/');
      return {
        file: dir ? `${dir}/${m[2]}` : m[2]!,
        line: Number(m[3]),
        format,
        library: LIBRARY_CLASS.test(m[1]!),
        index,
      };
    }
    if (format === 'dotnet-frame') {
      return {
        file: m[2]!,
        line: Number(m[3]),
        format,
        library: LIBRARY_CLASS.test(m[1]!) || LIBRARY_PATH.test(m[2]!),
        index,
      };
    }
    const file = m[1]!;
    return {
      file,
      line: Number(m[2]),
      column: m[3] !== undefined ? Number(m[3]) : undefined,
      format,
      library: LIBRARY_PATH.test(file),
      index,
    };
  }
  return undefined;
}

// ESLint's default (stylish) output: the file on a line of its own, then `  12:5  error  …` lines.
const STYLISH_FILE = new RegExp(String.raw`^\s*(${PATH})\s*$`);
const STYLISH_PROBLEM = /^\s+(\d+):(\d+)\s+(?:error|✖)\s/;

/**
 * The source locations the lines name, in order, without libraries' files: of a Python traceback
 * its last frame in the project (where the project's code raised), of a JVM, .NET or JS stack its
 * first frame in the project (the project's code nearest the throw).
 */
export function locationsIn(lines: readonly string[]): SourceLocation[] {
  const found: Found[] = [];
  let stylishFile: string | undefined;
  // The current stack: consecutive frame lines; one location chosen when it ends.
  let stack: Found[] = [];
  const endStack = () => {
    if (stack.length === 0) return;
    const project = stack.filter((f) => !f.library);
    const pick = stack[0]!.format === 'python-frame' ? project.at(-1) : project[0];
    if (pick) found.push(pick);
    stack = [];
  };
  lines.forEach((text, index) => {
    const file = STYLISH_FILE.exec(text);
    if (file) stylishFile = file[1];
    const problem = stylishFile ? STYLISH_PROBLEM.exec(text) : null;
    if (problem && stylishFile) {
      endStack();
      found.push({
        file: stylishFile,
        line: Number(problem[1]),
        column: Number(problem[2]),
        format: 'eslint-stylish',
        library: LIBRARY_PATH.test(stylishFile),
        index,
      });
      return;
    }
    const loc = readLine(text, index);
    if (loc && FRAME_FORMATS.has(loc.format)) {
      if (stack.length > 0 && stack[0]!.format !== loc.format) endStack();
      stack.push(loc);
      return;
    }
    // A Python traceback's source lines and carets sit between its frames.
    if (stack[0]?.format === 'python-frame' && /^\s{4,}\S|^\s*[~^]+\s*$/.test(text)) return;
    endStack();
    if (loc && !loc.library) found.push(loc);
  });
  endStack();
  const out: SourceLocation[] = [];
  const seen = new Set<string>();
  for (const f of found) {
    const key = `${f.file}:${f.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file: f.file, line: f.line, column: f.column, format: f.format });
  }
  return out;
}

// A correction the tool itself proposed: Terraform's and Python's `Did you mean "id"?`, Rust's
// `help: a field with a similar name exists`, npm's and git's "did you mean".
const SUGGESTION =
  /\b[Dd]id you mean\b[^?\n]{1,120}\?|^\s*(?:=\s*)?help: .*(?:similar name|did you mean|consider|try)\b.*$/;

/** The first suggestion a tool made itself (`Did you mean "id"?`), trimmed of box drawing. */
export function toolSuggestion(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const m = SUGGESTION.exec(line);
    if (m) return line.replace(/^[\s│|]+/, '').trim();
  }
  return undefined;
}
