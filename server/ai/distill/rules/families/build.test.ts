import { describe, expect, it } from 'vitest';
import { classifyLine } from '../classify-line.ts';
import { distillLog } from '../../log-distiller.ts';
import { diagnose } from '../../../offline/diagnosis.ts';
import { diagnoseLines, expectDiagnosis } from '../../../testing/documented-lines.ts';
import { itClassifiesFamilyLines, type Lookalike, type RuleCase } from '../rule-tester.ts';
import { buildFamily } from './build.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  {
    what: "dart analyze's error behind Melos' package name",
    from: 'https://melos.invertase.dev/commands/exec',
    line: "[dart_web3_trezor]:   error - lib/src/trezor_signer.dart:9:7 - Missing concrete implementation of 'abstract class Signer.signHash'.",
    rule: 'build/error-at-position',
    category: 'compile_error',
    lookalike: '[dart_web3_trezor]:   info - lib/src/trezor_signer.dart:3:8 - Unused import.',
  },
  {
    what: "Nim's compiler error",
    from: 'https://nim-lang.org/docs/nimc.html',
    line: '/w/src/figdraw/vulkan/vulkan_context.nim(25, 26) Error: cannot open file: shaders/sdf.vert.spv',
    rule: 'build/nim',
    category: 'compile_error',
    lookalike:
      "/w/src/figdraw/utils/drawutils.nim(6, 12) Warning: imported and not used: 'chroma' [UnusedImport]",
  },
  {
    what: "Quarkus' build-time template check",
    from: 'https://quarkus.io/guides/qute-reference#typesafe_expressions',
    line: '[ERROR] 	[error]: Build step io.quarkus.qute.deployment.QuteProcessor#processTemplateErrors threw an exception: io.quarkus.qute.TemplateException: Found incorrect expressions (1):',
    rule: 'build/qute-template',
    category: 'compile_error',
    lookalike: '[INFO] [io.quarkus.qute.deployment.QuteProcessor] 12 templates validated',
  },
  {
    what: 'GHC error heading, message on the next lines',
    from: 'https://errors.haskell.org/messages/GHC-88464',
    line: 'src/Main.hs:5:7: error: [GHC-88464]',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: 'GHC error heading before 9.6 (no code)',
    from: 'https://downloads.haskell.org/ghc/latest/docs/users_guide/using-warnings.html',
    line: 'src/Foo.hs:6:8: error:',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: 'OCaml type-checker error',
    from: 'https://ocaml.org/manual/latest/comp.html',
    line: 'Error: Unbound value foo',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: 'OCaml warning made an error by dune',
    from: 'https://dune.readthedocs.io/en/stable/faq.html',
    line: 'Error (warning 32 [unused-value-declaration]): unused value helper.',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: 'Dart front end error',
    from: 'https://dart.dev/tools/dart-compile',
    line: "lib/main.dart:12:5: Error: Expected ';' after this.",
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "Flutter's wrapper when the Dart compile failed",
    from: 'https://github.com/flutter/flutter/issues/133489',
    line: 'Target kernel_snapshot failed: Exception',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: 'Elixir CompileError',
    from: 'https://hexdocs.pm/elixir/CompileError.html',
    line: '** (CompileError) lib/demo/worker.ex:12: undefined function handle_job/1',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "clang's driver reporting the linker failed",
    from: 'https://github.com/ssut/ffmpeg-on-apple-silicon/issues/8',
    line: 'clang: error: linker command failed with exit code 1 (use -v to see invocation)',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "Apple ld's undefined symbols",
    from: 'https://github.com/ssut/ffmpeg-on-apple-silicon/issues/8',
    line: 'ld: symbol(s) not found for architecture arm64',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "Maven's compiler plugin verdict",
    from: 'https://maven.apache.org/plugins/maven-compiler-plugin/',
    line: '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project app: Compilation failure',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "Gradle's What went wrong: a Kotlin compile task",
    from: 'https://docs.gradle.org/current/userguide/troubleshooting.html',
    line: "Execution failed for task ':app:compileDebugKotlin'.",
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "the Kotlin Gradle plugin's compile failure",
    from: 'https://kotlinlang.org/docs/gradle-compilation-and-caches.html',
    line: '   > Compilation error. See log for more details',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "Gradle's Kotlin DSL build script not compiling",
    from: 'https://docs.gradle.org/current/userguide/kotlin_dsl.html',
    line: 'Script compilation error:',
    rule: 'build/build-script',
    category: 'config_yaml',
  },
  {
    what: "Gradle's build script failing to evaluate",
    from: 'https://docs.gradle.org/current/userguide/troubleshooting.html',
    line: "A problem occurred evaluating root project 'app'.",
    rule: 'build/build-script',
    category: 'config_yaml',
  },
  {
    what: 'Bazel compile action failing',
    from: 'https://bazel.build/run/build',
    line: 'ERROR: /home/user/project/src/BUILD:12:10: Compiling src/main.cc failed: (Exit 1): gcc failed: error executing CppCompile command (from target //src:app)',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "ninja's failed edge",
    from: 'https://github.com/ninja-build/ninja/blob/master/src/status_printer.cc',
    line: 'FAILED: CMakeFiles/app.dir/src/main.c.o',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "ninja's verdict",
    from: 'https://github.com/ninja-build/ninja/blob/master/src/ninja.cc',
    line: 'ninja: build stopped: subcommand failed.',
    rule: 'build/bundler-verdict',
    category: 'compile_error',
  },
  {
    what: "xcodebuild's list of failed commands (before Xcode 13)",
    from: 'https://github.com/duemunk/Async/issues/107',
    line: '\tCompileSwift normal arm64 /tmp/sandbox/workspace/Pods/AsyncSwift/Source/Async.swift',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "xcodebuild's list of failed commands",
    from: 'https://github.com/nisargjhaveri/vscode-ios-debug/issues/14',
    line: "\tCompileSwift normal arm64 /Users/runner/work/App/App/ContentView.swift (in target 'App' from project 'App')",
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: 'MSBuild project error',
    from: 'https://learn.microsoft.com/en-us/visualstudio/msbuild/errors/msb4057',
    line: '/src/App/App.csproj : error MSB4057: The target "Publish" does not exist in the project.',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: 'MSBuild invoked on a project that does not exist',
    from: 'https://learn.microsoft.com/en-us/visualstudio/msbuild/errors/msb1009',
    line: 'MSBUILD : error MSB1009: Project file does not exist.',
    rule: 'build/build-script',
    category: 'config_yaml',
  },
  {
    what: 'webpack: a file of the project not found',
    from: 'https://webpack.js.org/configuration/resolve/',
    line: "Module not found: Error: Can't resolve './UXPressiaPersonaCard' in '/app/src/components'",
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "webpack's error heading",
    from: 'https://webpack.js.org/api/stats/',
    line: 'ERROR in ./src/components/AgentGrid.jsx 8:0-58',
    rule: 'script/generic-error',
    categoryRule: 'build/bundler-verdict',
    category: 'compile_error',
  },
  {
    what: "Vite's build failure heading",
    from: 'https://vite.dev/guide/build',
    line: 'error during build:',
    rule: 'script/generic-error',
    categoryRule: 'build/bundler-verdict',
    category: 'compile_error',
  },
  {
    what: 'esbuild: a relative import that does not exist',
    from: 'https://esbuild.github.io/api/#log-level',
    line: '✘ [ERROR] Could not resolve "./components/Button"',
    rule: 'build/other-compilers',
    category: 'compile_error',
  },
  {
    what: "esbuild's JS API error",
    from: 'https://esbuild.github.io/api/#build',
    line: 'Error: Build failed with 1 error:',
    rule: 'script/generic-error',
    categoryRule: 'build/bundler-verdict',
    category: 'compile_error',
  },
  {
    what: 'Next.js / Create React App',
    from: 'https://nextjs.org/docs/app/api-reference/cli/next',
    line: 'Failed to compile.',
    rule: 'build/bundler-verdict',
    category: 'compile_error',
  },
  {
    what: "electron-builder's error mark",
    from: 'https://www.electron.build/',
    line: '  ⨯ Application entry file "main.js" in the "/home/u/app/dist/mac/App.app/Contents/Resources/app.asar" does not exist. Seems like a wrong configuration.',
    rule: 'build/error-mark',
    category: 'script_error',
  },
  {
    what: "xcodebuild's list of the commands that failed, below `** BUILD FAILED **`",
    from: 'https://github.com/Synquox/ElianAI/blob/35b14c806368b13bb5a0809bd9f9d515b3059bff/failed_log.txt',
    line: 'The following build commands failed:',
    rule: 'build/xcodebuild-failed-commands',
    kind: 'summary-header',
  },
];

/** Lines quoted from public CI logs (`from`), prefixes included. */
const QUOTED: RuleCase[] = [
  {
    what: "Python's IndentationError behind Railway's deploy-log stream tag",
    from: 'https://github.com/courtneylee09/VerifAI/blob/101cc2e3d4da20c48fbfeb5c71e92e5da283651c/railway-logs.txt',
    line: '2025-12-30T18:59:25.257477753Z [err]  IndentationError: unexpected indent',
    rule: 'build/compile-error-words',
    category: 'compile_error',
  },
  {
    what: "the Solidity compiler's coded diagnostics (under Foundry's 'Compiler run failed')",
    from: 'https://github.com/g-centurion/KipuBankV3/blob/f85a56bc377fde6ebb3b1f1de096f6c34d4307d4/job-logs.txt',
    line: '2025-11-10T21:24:49.3417702Z Error (6275): Source "lib/openzeppelin-contracts/contracts/security/ReentrancyGuard.sol" not found: File not found. Searched the following locations: "/home/runner/work/KipuBankV3_TP4/KipuBankV3_TP4".',
    rule: 'build/solidity',
    category: 'compile_error',
  },
  {
    what: 'an analyser error with a source position (flutter analyze)',
    from: 'https://github.com/h223492759/jizhang-android/blob/99462d8d255f1e0bd3b6c90d020471c34b2b431f/ci_log.txt',
    line: "2026-08-16T10:38:32.3023561Z   error • A value of type 'String' can't be assigned to a variable of type 'double' • lib/core/api.dart:202:38 • invalid_assignment",
    rule: 'build/error-at-position',
    category: 'compile_error',
  },
  {
    what: "Android's manifest merger",
    from: 'https://github.com/kingjjy-debug/my-android-app/blob/61e3684f1a644aeabe83111e68b83ae41522b7e2/ci.log',
    line: 'build\tBuild with Gradle\t2025-09-15T00:25:09.7602616Z > Manifest merger failed with multiple errors, see logs',
    rule: 'build/manifest-merger',
    category: 'compile_error',
  },
  {
    what: 'MSVC error C#### behind a GitHub Actions timestamp',
    from: 'https://github.com/gbionics/whole-body-estimators/issues/6',
    line: "2020-03-13T19:16:35.9373979Z D:\\a\\whole-body-estimators\\whole-body-estimators\\devices\\baseEstimatorV1\\include\\baseEstimatorV1.h(46,23): error C2065: 'M_PI': undeclared identifier [D:\\a\\whole-body-estimators\\whole-body-estimators\\build\\devices\\baseEstimatorV1\\baseEstimatorV1.vcxproj]",
    rule: 'build/compile-error',
    category: 'compile_error',
  },
  {
    what: 'implicit declaration behind an OBS build time',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/drbd_standard_x86_64.log',
    line: "[   68s] /home/abuild/rpmbuild/BUILD/drbd-9.1.23-build/drbd-9.1.23/default/./drbd_receiver.c:7128:25: error: implicit declaration of function 'del_timer'; did you mean 'add_timer'? [-Wimplicit-function-declaration]",
    rule: 'build/compile-error',
    category: 'compile_error',
  },
  {
    what: "GitHub Actions '##[error]' annotation on a Go diagnostic",
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages_dump/Quick%20Checks_/run201/fail.log',
    line: '2022-04-19T19:10:42.7948967Z ##[error]/home/runner/work/terraform/terraform/internal/command/views/json/change.go:85:2: missing cases in switch of type plans.ResourceInstanceChangeActionReason: ResourceInstanceReplaceByTriggers',
    rule: 'build/go',
    category: 'compile_error',
  },
  {
    what: 'sbt `[error] file.scala:78:` compiler error',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Scala/scala%40scala/failed/567103817.log',
    line: '\u001b[0m[\u001b[31merror\u001b[0m] \u001b[0m/home/travis/build/scala/scala/src/reflect/scala/reflect/internal/util/Collections.scala:78: type mismatch;\u001b[0m',
    rule: 'build/compile-error',
    category: 'compile_error',
  },
  {
    what: "pytest's `E` line under a collection error",
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/python/2512030835-orig.log',
    line: '2022-06-16T22:11:49.2442004Z E   SyntaxError: invalid syntax',
    rule: 'build/compile-error-words',
    category: 'compile_error',
  },
  {
    what: 'Erlang compiler error',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Erlang/rabbitmq%40rabbitmq-server/failed/571748388.log',
    line: 'src/rabbit_vhost.erl:91: field description undefined in record vhost',
    rule: 'build/erlang',
    category: 'compile_error',
  },
  {
    what: 'Kotlin compiler error (K1 format)',
    from: 'https://kotlinlang.org/docs/compiler-reference.html',
    line: 'e: /builds/app/src/main/kotlin/Main.kt: (12, 5): Unresolved reference: foo',
    rule: 'build/kotlin',
    category: 'compile_error',
  },
  {
    what: 'Kotlin compiler error (K2 format)',
    from: 'https://kotlinlang.org/docs/k2-compiler-migration-guide.html',
    line: 'e: file:///builds/app/src/main/kotlin/Main.kt:12:5 Unresolved reference: foo',
    rule: 'build/kotlin',
    category: 'compile_error',
  },
  {
    what: "autoconf's configure stopping on a broken toolchain",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Rust/BurntSushi%40ripgrep/failed/524197508.log',
    line: 'configure: error: C compiler cannot create executables',
    rule: 'build/configure-or-cmake',
    category: 'compile_error',
  },
];

/** Lines like these failures that are not one: warnings, echoed commands, passing runs. */
const LOOKALIKES: Lookalike[] = [
  // A GHC warning is printed with `warning:`.
  {
    what: 'GHC warning',
    line: 'src/Main.hs:3:1: warning: [GHC-40910] [-Wunused-top-binds]',
    not: 'compile_error',
  },
  // Dart warnings say `Warning:`.
  {
    what: 'Dart warning',
    line: "lib/main.dart:3:8: Warning: Operand of null-aware operation '!' has type 'String'.",
    not: 'compile_error',
  },
  // MSB3073 is a command's exit code (a PostBuild script), not the compiler.
  {
    what: 'MSB3073 exec task',
    line: '/src/App/App.csproj(42,5): error MSB3073: The command "./post.sh" exited with code 1.',
    not: 'compile_error',
  },
  // Echoed commands and passing tests that quote the wording.
  {
    what: 'echoed Next.js build',
    line: '+ echo "Failed to compile."',
    not: 'compile_error',
  },
  {
    what: 'tsc in watch mode, no errors',
    line: 'Found 0 errors. Watching for file changes.',
    not: 'compile_error',
  },
  {
    what: 'black with nothing to change',
    line: 'All done! ✨ 🍰 ✨ 12 files would be left unchanged.',
    not: 'compile_error',
  },
  {
    what: 'Prettier option warning',
    line: '[warn] Ignored unknown option { foo: true }.',
    not: 'compile_error',
  },
  // `dart format` without --set-exit-if-changed prints the same summary after rewriting files.
  {
    what: 'dart format that rewrote a file',
    line: 'Formatted 51 files (1 changed) in 2.19 seconds.',
    not: 'compile_error',
  },
  {
    what: 'Python logging line',
    line: 'ERROR in processing the request, retrying',
    not: 'compile_error',
  },
  {
    what: 'Bazel verdict',
    line: 'FAILED: Build did NOT complete successfully',
    not: 'compile_error',
  },
  {
    what: 'Gradle compile task starting',
    line: '> Task :app:compileDebugKotlin',
    not: 'compile_error',
  },
  { what: 'webpack warning', line: 'WARNING in ./src/index.js 3:0-20', not: 'compile_error' },
  {
    what: 'esbuild warning',
    line: '▲ [WARNING] Duplicate key "x" in object literal',
    not: 'compile_error',
  },
];

describe('build rules', () => {
  itClassifiesFamilyLines(buildFamily, {
    documented: DOCUMENTED,
    quoted: QUOTED,
    lookalikes: LOOKALIKES,
  });
});

describe('build: lines', () => {
  it("reads PyYAML's ParserError as configuration and solc's as code", () => {
    // https://pyyaml.org/wiki/PyYAMLDocumentation (errors), https://docs.soliditylang.org/en/latest/using-the-compiler.html
    expect(classifyLine('yaml.parser.ParserError: while parsing a block mapping').category).toBe(
      'config_yaml',
    );
    expect(classifyLine("ParserError (2314): Expected ';' but got '}'").category).toBe(
      'compile_error',
    );
  });

  it('does not read a zero count of undefined findings as a compile error', () => {
    // Bandit's summary (`Undefined: 0` under `Total issues (by severity):`).
    expect(classifyLine('\t\tUndefined: 0').category).not.toBe('compile_error');
    expect(classifyLine('./main.go:12:2: undefined: fooBar').category).toBe('compile_error');
  });
});

describe('build: whole logs through the analyser', () => {
  it('does not read a stack frame Maven relays as a compile error', () => {
    const d = diagnoseLines([
      '[ERROR] Failed to execute goal io.quarkus:quarkus-maven-plugin:3.30.1:build (default) on project app: Failed to build quarkus application',
      '[ERROR] 	at io.quarkus.qute.deployment.QuteProcessor.processTemplateErrors(QuteProcessor.java:274)',
      '[ERROR] 	at java.base/java.lang.invoke.MethodHandle.invokeWithArguments(MethodHandle.java:733)',
    ]);
    expect(d.category).not.toBe('compile_error');
  });

  it("calls Nim's compiler stopping a compile error, quoting it rather than nimble's exit", () => {
    // GitHub Actions log, https://github.com/elcritch/figdraw/blob/f922a4a9e97d29cc66b8296c6d10beee0a9f7355/ci.log (MIT).
    const log = [
      "/home/runner/work/figdraw/figdraw/src/figdraw/utils/drawutils.nim(6, 12) Warning: imported and not used: 'chroma' [UnusedImport]",
      '/home/runner/work/figdraw/figdraw/src/figdraw/vulkan/vulkan_context.nim(25, 26) Error: cannot open file: shaders/sdf.vert.spv',
      'stack trace: (most recent call last)',
      '/home/runner/work/figdraw/figdraw/config.nims(41, 16) testTask',
      '/home/runner/.local/share/grabnim/nim-2.2.6/lib/system/nimscript.nim(264, 7) Error: unhandled exception: FAILED: nim r   tests/trender_rgb_boxes_sdf_siwin.nim [OSError]',
      'Error: Process completed with exit code 1.',
    ];
    const d = expectDiagnosis(log, 'compile_error');
    expect(d.evidence[0]?.text).toContain('cannot open file: shaders/sdf.vert.spv');
  });

  it('keeps what a Gradle failure says went wrong, not only its wrapper', () => {
    // Gradle prints `FAILURE: Build failed with an exception.` whatever failed; the block below
    // it names the task (https://docs.gradle.org/current/userguide/troubleshooting.html).
    expect(classifyLine('FAILURE: Build failed with an exception.').category).toBe('script_error');
    const log = [
      '> Task :app:compileDebugKotlin FAILED',
      "e: file:///home/runner/work/app/src/main/kotlin/App.kt:12:5 Unresolved reference 'foo'.",
      '',
      'FAILURE: Build failed with an exception.',
      '',
      '* What went wrong:',
      "Execution failed for task ':app:compileDebugKotlin'.",
      '> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction',
      '   > Compilation error. See log for more details',
      '',
      'BUILD FAILED in 41s',
    ];
    expectDiagnosis(log, 'compile_error');
  });

  it('calls an OCaml build whose type checker rejected the code a compile error', () => {
    // dune's output: location, source excerpt, then the error (https://ocaml.org/manual/latest/comp.html).
    const log = [
      '$ dune build',
      'File "bin/main.ml", line 1, characters 8-11:',
      '1 | let x = foo',
      '            ^^^',
      'Error: Unbound value foo',
    ].join('\n');
    const distilled = distillLog(log);
    expect(diagnose(distilled).category).toBe('compile_error');
    expect(distilled.text).toContain('File "bin/main.ml", line 1, characters 8-11:');
  });
});
