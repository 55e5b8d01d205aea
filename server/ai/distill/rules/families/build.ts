/**
 * Compilers, build drivers and bundlers rejecting the code.
 */
import { ERROR_CODE_HINT, GO_LOCATION_HINT } from '../prefilter.ts';
import { defineFamily } from '../rule.ts';

/** Compilers, build drivers and bundlers rejecting the code. */
export const buildFamily = defineFamily({
  name: 'build',
  // prettier-ignore
  hints: [
    'err', 'fail', 'fatal', 'exception', 'exit', 'not found', 'cannot', "can't", 'could not',
    'undefined', 'invalid', 'expected', 'warn', 'mismatched', 'unknown', 'missing', 'no matching',
    'syntax', 'unexpected', 'terminated', 'does not exist', 'implicit declaration', 'resolv',
    'no rule to make target', 'incompatible', 'in target ', 'normal arm', 'normal x86_64',
    'problem occurred', /^\s*--> /, /^\*\* \(/, /^e: /, ERROR_CODE_HINT, GO_LOCATION_HINT,
  ],
  rules: {
    // electron-builder's and Next.js's error mark (`  ⨯ Application entry file "main.js" in the
    // "…/app.asar" does not exist.`, https://www.electron.build/): a generic error line, so that
    // Next.js's `⨯ Next.js build worker exited with code: 1` stays a wrapper.
    'error-mark': {
      re: /^\s*⨯ \S/,
      score: 85,
      kind: 'error',
      category: 'script_error',
    },
    // The Solidity compiler's diagnostics carry a numeric code (`Error (6275): Source "…" not
    // found`, `ParserError (2314): Expected ';'`,
    // https://docs.soliditylang.org/en/latest/using-the-compiler.html), and Foundry reports them
    // under `Error: Compiler run failed:`.
    solidity: {
      re: /^(?:Error|ParserError|DeclarationError|TypeError|SyntaxError|DocstringParsingError) \(\d{4}\): /,
      score: 88,
      kind: 'error',
      category: 'compile_error',
    },
    // Android's manifest merger refusing the app's manifests (AGP's `Manifest merger failed with
    // multiple errors, see logs`, https://developer.android.com/build/manage-manifests).
    'manifest-merger': {
      re: /\bManifest merger failed\b/,
      score: 88,
      kind: 'error',
      category: 'compile_error',
    },
    // An error diagnostic with a source position, in the forms analysers print besides the
    // compilers' own (`error • Undefined name 'x' • lib/a.dart:85:10 • undefined_identifier` from
    // `dart analyze` / `flutter analyze`, `error: … at src/a.kt:12:5`), also as Melos prints a
    // package's output, behind the package's name (`[app_core]:   error - lib/a.dart:9:7 - …`,
    // https://melos.invertase.dev/commands/exec).
    'error-at-position': {
      re: /^\s*(?:\[[\w.-]+\]:\s+)?error\b.{0,300}?[\w./-]+\.[a-z]{1,6}:\d+:\d+/,
      score: 87,
      kind: 'error',
      category: 'compile_error',
    },
    // Nim's compiler, which names the file and position in parentheses (`vulkan_context.nim(25, 26)
    // Error: cannot open file: shaders/sdf.vert.spv`, https://nim-lang.org/docs/nimc.html).
    nim: {
      re: /^\S+\.nim\(\d+, \d+\) Error: /,
      score: 88,
      kind: 'error',
      category: 'compile_error',
    },
    // Quarkus validates Qute templates' type-safe expressions when it builds the application
    // (`io.quarkus.qute.TemplateException: Found incorrect expressions (1):`, `Parser error in
    // template [x.html] line 3: …`, https://quarkus.io/guides/qute-reference#typesafe_expressions):
    // a build-time check of the code, like a compiler's.
    'qute-template': {
      re: /\bqute\.TemplateException: (?:Found incorrect expressions|Parser error)\b/,
      score: 89,
      kind: 'error',
      category: 'compile_error',
    },
    // Zero-shot (build): the build invoked or configured wrongly: MSBuild's command-line errors
    // MSB1xxx (`MSBUILD : error MSB1009: Project file does not exist.`,
    // https://learn.microsoft.com/en-us/visualstudio/msbuild/errors/msb1009), Gradle's build script
    // failing (`A problem occurred evaluating root project`, Kotlin DSL `Script compilation
    // error:`, https://docs.gradle.org/current/userguide/troubleshooting.html).
    'build-script': {
      re: /^MSBUILD : error MSB1\d{3}:|^\s*(?:> )?(?:A problem occurred evaluating (?:root )?project\b|Script compilation errors?:)/,
      score: 88,
      kind: 'error',
      category: 'config_yaml',
    },
    // Zero-shot (build): compilers, build drivers and bundlers whose error lines the rules below do
    // not know. GHC `Main.hs:5:7: error: [GHC-88464]`, the message on the next lines
    // (https://errors.haskell.org/messages/GHC-88464). OCaml `Error: Unbound value foo`
    // (https://ocaml.org/manual/latest/comp.html; the `File "a.ml", line 12, characters 4-9:` above
    // it also heads warnings, so it is only kept as context). The Dart front end `lib/a.dart:12:5:
    // Error: …` (https://dart.dev/tools/dart-compile) and Flutter's `Target kernel_snapshot
    // failed`. Elixir `** (CompileError) lib/a.ex:12: …`
    // (https://hexdocs.pm/elixir/CompileError.html). clang's driver `clang: error: linker command
    // failed with exit code 1` and Apple ld's `symbol(s) not found`
    // (https://github.com/ssut/ffmpeg-on-apple-silicon/issues/8). Maven's compiler plugin
    // `Compilation failure` (https://maven.apache.org/plugins/maven-compiler-plugin/), the Kotlin
    // Gradle plugin's `Compilation error. See log for more details` and Gradle's compile tasks in
    // `What went wrong`. Bazel's `ERROR: /src/BUILD:12:10: Compiling a.cc failed: (Exit 1)`
    // (https://bazel.build/run/build). MSBuild's other MSB#### errors
    // (https://learn.microsoft.com/en-us/visualstudio/msbuild/errors/msb4057), not MSB3073 (a
    // command's exit code) nor MSB4019/MSB4236 (an SDK not installed). webpack's `Module not found:
    // Error: Can't resolve './Foo' in '/src'` for a file of the project
    // (https://webpack.js.org/configuration/resolve/); a relative import esbuild or Rollup cannot
    // resolve; esbuild's other compile diagnostics (`✘ [ERROR] Expected …`, `Unexpected …`,
    // https://esbuild.github.io/api/#build; wrangler prints its own errors as `✘ [ERROR]` too, so
    // only esbuild's wordings count). ninja's failed edge `FAILED: a.o`
    // (https://github.com/ninja-build/ninja/blob/master/src/status_printer.cc). xcodebuild's failed
    // commands list (`\tCompileSwift normal arm64 /src/A.swift`, since Xcode 13 `… (in target 'App'
    // from project 'App')`: https://github.com/duemunk/Async/issues/107,
    // https://github.com/nisargjhaveri/vscode-ios-debug/issues/14).
    'other-compilers': {
      re: /^\S+\.l?hs:(?:\d+:\d+(?:-\d+)?|\(\d+,\d+\)-\(\d+,\d+\)): error:(?:\s|$)|^<no location info>: error:|^Error \(warning \d+[^)]*\): |^Error: (?:Unbound (?:value|module|type|constructor|record field|class)|This (?:expression|pattern) has type|Syntax error|Signature mismatch|The implementation \S+ does not match|Some record fields are undefined)|^\S+\.dart:\d+:\d+: Error: |\bTarget kernel_snapshot\w* failed\b|^\*\* \((?:CompileError|SyntaxError|TokenMissingError|MismatchedDelimiterError)\) |^(?:\S+: )?error: linker command failed with exit code |^ld: symbol\(s\) not found for architecture|^error: unknown type name |: Compilation failure\b|^\s*(?:> )?Compilation error\. See log for more details|Execution failed for task '[^']*:(?:compile|kapt|ksp)\w*'|^ERROR: \S+:\d+:\d+: (?:Compiling|Linking|Building|GoCompilePkg|GoLink|KotlinCompile|SwiftCompile)\b.* failed: |\berror MSB(?!3021|3026|3027|3073|3644|4019|4236)\d{4}:|Module not found: (?:Error: )?Can't resolve '[./]|\bCould not resolve ["']\.|^(?:\[vite(?::[\w-]+)?\]:? )?Rollup failed to resolve import "[./~@]|^✘ \[ERROR\] (?:Expected |Unexpected |No matching export |Could not resolve |Unterminated |The symbol |Multiple exports |Transforming |Cannot |Top-level await |Invalid |Syntax |Duplicate |Missing )|^\S+:\d+:\d+: ERROR: |^FAILED: (?:\[code=\d+\] )?(?:\S+\.(?:o|obj|a|so|lib|dll|dylib|exe|pch|gch)\b|\S*CMakeFiles\/)|^\t(?:CompileSwift|SwiftCompile|CompileSwiftSources|SwiftEmitModule|EmitSwiftModule|PrecompileSwiftBridgingHeader|CompileC|Ld|CompileStoryboard|CompileXIB|CompileAssetCatalog\w*) .*(?:\(in target '|\bnormal (?:arm|x86_64))/,
      score: 88,
      kind: 'error',
      category: 'compile_error',
    },
    // Zero-shot (build): bundlers' and build drivers' verdicts, below the errors they sum up:
    // webpack's `ERROR in ./src/a.js 12:5` and `webpack compiled with 2 errors`
    // (https://webpack.js.org/api/stats/), Next.js and Create React App `Failed to compile.`
    // (https://nextjs.org/docs/app/api-reference/cli/next), Vite's `error during build:`
    // (https://vite.dev/guide/build), esbuild's JS API `Build failed with 1 error:`
    // (https://esbuild.github.io/api/#build), ninja's `ninja: build stopped: subcommand failed.`
    // (https://github.com/ninja-build/ninja/blob/master/src/ninja.cc).
    'bundler-verdict': {
      re: /^\s*ERROR in (?:\S*[/.]\S*|\[\w+\])|^Failed to compile\.?\s*$|^error during build:\s*$|\bBuild failed with [1-9]\d* errors?:|\bwebpack(?: [\d.]+)? compiled with [1-9]\d* errors?\b|^> Build failed because of webpack errors|^ninja: build stopped: subcommand failed\./,
      score: 84,
      kind: 'error',
      category: 'compile_error',
    },
    // Zero-shot (build): xcodebuild's list of the commands that failed, below `** BUILD FAILED **`.
    'xcodebuild-failed-commands': {
      re: /^The following build commands failed:/,
      score: 82,
      kind: 'summary-header',
    },
    // Compile / build errors.
    'compile-error': {
      // Compilers print a lower-case `error:`; `Error:` is usually a runtime or test message.
      // Maven's `[ERROR] /src/A.java:[12,5]` is javac's; `[ERROR] \tat a.B(B.java:274)` is a stack
      // frame Maven relays, not a compile error.
      re: /^\s*(?:\S+:\d+(?::\d+)?: (?:fatal )?error|(?:fatal )?error\[E\d{4}\]): |\berror (?:TS|CS|C|LNK)\d{4,5}\b|\bfatal error (?:C|LNK)\d{4}\b|\[(?:ERROR|error)\] (?!\s*at )(?!\s*\.\.\. \d+ more).*\.(?:java|kt|scala):\[?\d+|\bimplicit declaration of (?:function|variable)|\b(?:lld-link|ld(?:\.\w+)?|collect2): error:|\bundefined symbol: |\bunresolved external symbol\b/,
      score: 88,
      kind: 'error',
      category: 'compile_error',
    },
    'compile-error-words': {
      re: /\b(?:undefined reference to|cannot find symbol|unresolved import|cannot find (?:module|package|type|name|value|crate)|undeclared name|undefined: (?!\d)|has no (?:field or method|attribute|member)|is not assignable to|incompatible types|expected .*, found\b|syntax error|SyntaxError|^(?:IndentationError|TabError): |compilation (?:failed|terminated)|COMPILATION ERROR|Compilation failed|could not compile|cannot use .* as|mismatched types|does not exist on type|is not defined|ld returned \d+ exit status)/i,
      score: 88,
      kind: 'error',
      category: 'compile_error',
    },
    'configure-or-cmake': {
      re: /^configure: error: |^CMake Error\b/,
      score: 88,
      kind: 'error',
      category: 'compile_error',
    },
    // The Kotlin compiler prints `e: file.kt: (12, 5): message` (K1) or `e: file:///x.kt:12:5
    // message` (K2).
    kotlin: {
      re: /^e: (?:file:\/\/)?\S+\.kts?(?::\d+:\d+|: \(\d+, \d+\):)\s/,
      score: 88,
      kind: 'error',
      category: 'compile_error',
    },
    // Erlang's compiler prints `src/x.erl:91: message` (warnings say `Warning:`).
    erlang: {
      re: /^\S+\.[he]rl:\d+(?::\d+)?: (?!Warning:)\S/,
      score: 87,
      kind: 'error',
      category: 'compile_error',
    },
    // Go's compiler, vet and linters print `file.go:line:col: message` at column 0 (test output is
    // indented).
    go: {
      re: /^[\w./-]+\.go:\d+(?::\d+)?: \S/,
      score: 87,
      kind: 'error',
      category: 'compile_error',
    },
  },
});
