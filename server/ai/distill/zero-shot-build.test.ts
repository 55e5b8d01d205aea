import { describe, expect, it } from 'vitest';
import { diagnose } from '../offline/diagnosis.ts';
import { classifyLine } from './line-rules.ts';
import { distillLog } from './log-distiller.ts';
import {
  diagnoseLines,
  type DocumentedLine,
  itClassifiesDocumentedLines,
  type Lookalike,
  expectDiagnosis,
} from '../testing/documented-lines.ts';

/**
 * One build tool's documented failure line (`doc`: where its wording was checked) and what the
 * rules must make of it, written from the tools' docs and sources, not from our corpus.
 */

const DOCUMENTED: DocumentedLine[] = [
  {
    family: 'GHC error heading, message on the next lines',
    doc: 'https://errors.haskell.org/messages/GHC-88464',
    line: 'src/Main.hs:5:7: error: [GHC-88464]',
    category: 'compile_error',
  },
  {
    family: 'GHC error heading before 9.6 (no code)',
    doc: 'https://downloads.haskell.org/ghc/latest/docs/users_guide/using-warnings.html',
    line: 'src/Foo.hs:6:8: error:',
    category: 'compile_error',
  },
  {
    family: 'OCaml type-checker error',
    doc: 'https://ocaml.org/manual/latest/comp.html',
    line: 'Error: Unbound value foo',
    category: 'compile_error',
  },
  {
    family: 'OCaml warning made an error by dune',
    doc: 'https://dune.readthedocs.io/en/stable/faq.html',
    line: 'Error (warning 32 [unused-value-declaration]): unused value helper.',
    category: 'compile_error',
  },
  {
    family: 'Dart front end error',
    doc: 'https://dart.dev/tools/dart-compile',
    line: "lib/main.dart:12:5: Error: Expected ';' after this.",
    category: 'compile_error',
  },
  {
    family: "Flutter's wrapper when the Dart compile failed",
    doc: 'https://github.com/flutter/flutter/issues/133489',
    line: 'Target kernel_snapshot failed: Exception',
    category: 'compile_error',
  },
  {
    family: 'Elixir CompileError',
    doc: 'https://hexdocs.pm/elixir/CompileError.html',
    line: '** (CompileError) lib/demo/worker.ex:12: undefined function handle_job/1',
    category: 'compile_error',
  },
  {
    family: "clang's driver reporting the linker failed",
    doc: 'https://github.com/ssut/ffmpeg-on-apple-silicon/issues/8',
    line: 'clang: error: linker command failed with exit code 1 (use -v to see invocation)',
    category: 'compile_error',
  },
  {
    family: "Apple ld's undefined symbols",
    doc: 'https://github.com/ssut/ffmpeg-on-apple-silicon/issues/8',
    line: 'ld: symbol(s) not found for architecture arm64',
    category: 'compile_error',
  },
  {
    family: 'a library the linker cannot find (a system package not installed)',
    doc: 'https://sourceware.org/binutils/docs/ld/Options.html',
    line: '/usr/bin/ld: cannot find -lz: No such file or directory',
    category: 'dependency_network',
  },
  {
    family: "Maven's compiler plugin verdict",
    doc: 'https://maven.apache.org/plugins/maven-compiler-plugin/',
    line: '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project app: Compilation failure',
    category: 'compile_error',
  },
  {
    family: "Gradle's What went wrong: a Kotlin compile task",
    doc: 'https://docs.gradle.org/current/userguide/troubleshooting.html',
    line: "Execution failed for task ':app:compileDebugKotlin'.",
    category: 'compile_error',
  },
  {
    family: "the Kotlin Gradle plugin's compile failure",
    doc: 'https://kotlinlang.org/docs/gradle-compilation-and-caches.html',
    line: '   > Compilation error. See log for more details',
    category: 'compile_error',
  },
  {
    family: "Gradle's What went wrong: failing tests",
    doc: 'https://docs.gradle.org/current/userguide/java_testing.html',
    line: '> There were failing tests. See the report at: file:///home/runner/work/app/build/reports/tests/test/index.html',
    category: 'test_failure',
  },
  {
    family: "Maven Surefire's goal failure: failing tests",
    doc: 'https://maven.apache.org/surefire/maven-surefire-plugin/examples/skipping-tests.html',
    line: '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project app: There are test failures.',
    category: 'test_failure',
  },
  {
    family: "a test plugin's verdict (sbt TextTest, gulp-mocha, jmeter-maven)",
    doc: 'https://github.com/sindresorhus/gulp-mocha/blob/main/index.js',
    line: 'java.lang.RuntimeException: There were test failures',
    category: 'test_failure',
  },
  {
    family: "Gradle's Kotlin DSL build script not compiling",
    doc: 'https://docs.gradle.org/current/userguide/kotlin_dsl.html',
    line: 'Script compilation error:',
    category: 'config_yaml',
  },
  {
    family: "Gradle's build script failing to evaluate",
    doc: 'https://docs.gradle.org/current/userguide/troubleshooting.html',
    line: "A problem occurred evaluating root project 'app'.",
    category: 'config_yaml',
  },
  {
    family: 'Bazel compile action failing',
    doc: 'https://bazel.build/run/build',
    line: 'ERROR: /home/user/project/src/BUILD:12:10: Compiling src/main.cc failed: (Exit 1): gcc failed: error executing CppCompile command (from target //src:app)',
    category: 'compile_error',
  },
  {
    family: "ninja's failed edge",
    doc: 'https://github.com/ninja-build/ninja/blob/master/src/status_printer.cc',
    line: 'FAILED: CMakeFiles/app.dir/src/main.c.o',
    category: 'compile_error',
  },
  {
    family: "ninja's verdict",
    doc: 'https://github.com/ninja-build/ninja/blob/master/src/ninja.cc',
    line: 'ninja: build stopped: subcommand failed.',
    category: 'compile_error',
  },
  {
    family: "xcodebuild's list of failed commands (before Xcode 13)",
    doc: 'https://github.com/duemunk/Async/issues/107',
    line: '\tCompileSwift normal arm64 /tmp/sandbox/workspace/Pods/AsyncSwift/Source/Async.swift',
    category: 'compile_error',
  },
  {
    family: "xcodebuild's list of failed commands",
    doc: 'https://github.com/nisargjhaveri/vscode-ios-debug/issues/14',
    line: "\tCompileSwift normal arm64 /Users/runner/work/App/App/ContentView.swift (in target 'App' from project 'App')",
    category: 'compile_error',
  },
  {
    family: 'MSBuild project error',
    doc: 'https://learn.microsoft.com/en-us/visualstudio/msbuild/errors/msb4057',
    line: '/src/App/App.csproj : error MSB4057: The target "Publish" does not exist in the project.',
    category: 'compile_error',
  },
  {
    family: 'MSBuild invoked on a project that does not exist',
    doc: 'https://learn.microsoft.com/en-us/visualstudio/msbuild/errors/msb1009',
    line: 'MSBUILD : error MSB1009: Project file does not exist.',
    category: 'config_yaml',
  },
  {
    family: 'NuGet NU1605 package downgrade as an error',
    doc: 'https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1605',
    line: '/src/App/App.csproj : error NU1605: Warning As Error: Detected package downgrade: Serilog.Extensions.Hosting from 9.0.0 to 8.0.0. Reference the package directly from the project to select a different version.',
    category: 'dependency_network',
  },
  {
    family: 'webpack: a file of the project not found',
    doc: 'https://webpack.js.org/configuration/resolve/',
    line: "Module not found: Error: Can't resolve './UXPressiaPersonaCard' in '/app/src/components'",
    category: 'compile_error',
  },
  {
    family: "webpack's error heading",
    doc: 'https://webpack.js.org/api/stats/',
    line: 'ERROR in ./src/components/AgentGrid.jsx 8:0-58',
    category: 'compile_error',
  },
  {
    family: 'Vite: a bare package import not installed',
    doc: 'https://vite.dev/guide/dep-pre-bundling',
    line: '[vite]: Rollup failed to resolve import "react-quill" from "/app/src/components/RichTextEditor.jsx".',
    category: 'dependency_network',
  },
  {
    family: "Vite's build failure heading",
    doc: 'https://vite.dev/guide/build',
    line: 'error during build:',
    category: 'compile_error',
  },
  {
    family: 'esbuild: a relative import that does not exist',
    doc: 'https://esbuild.github.io/api/#log-level',
    line: '✘ [ERROR] Could not resolve "./components/Button"',
    category: 'compile_error',
  },
  {
    family: 'esbuild: a package not installed',
    doc: 'https://esbuild.github.io/api/#external',
    line: '✘ [ERROR] Could not resolve "nodemailer"',
    category: 'dependency_network',
  },
  {
    family: "esbuild's JS API error",
    doc: 'https://esbuild.github.io/api/#build',
    line: 'Error: Build failed with 1 error:',
    category: 'compile_error',
  },
  {
    family: 'Next.js / Create React App',
    doc: 'https://nextjs.org/docs/app/api-reference/cli/next',
    line: 'Failed to compile.',
    category: 'compile_error',
  },
  {
    family: "next lint's error line",
    doc: 'https://nextjs.org/docs/app/api-reference/config/eslint',
    line: "2:8  Error: 'React' is defined but never used.  no-unused-vars",
    category: 'compile_error',
  },
  {
    family: "ESLint's compact formatter",
    doc: 'https://eslint.org/docs/latest/use/formatters/',
    line: '/src/a.ts: line 12, col 5, Error - Unexpected any. Specify a different type. (@typescript-eslint/no-explicit-any)',
    category: 'compile_error',
  },
  {
    family: 'ESLint --max-warnings exceeded',
    doc: 'https://eslint.org/docs/latest/use/command-line-interface#--max-warnings',
    line: 'ESLint found too many warnings (maximum: 0).',
    category: 'compile_error',
  },
  {
    family: "mypy's summary",
    doc: 'https://mypy.readthedocs.io/en/stable/running_mypy.html',
    line: 'Found 5 errors in 4 files (checked 321 source files)',
    category: 'compile_error',
  },
  {
    family: "tsc's summary",
    doc: 'https://www.typescriptlang.org/docs/handbook/compiler-options.html',
    line: 'Found 3 errors in 2 files.',
    category: 'compile_error',
  },
  {
    family: "pyright's summary",
    doc: 'https://microsoft.github.io/pyright/#/command-line',
    line: '3 errors, 0 warnings, 0 informations ',
    category: 'compile_error',
  },
  {
    family: 'black --check',
    doc: 'https://black.readthedocs.io/en/stable/usage_and_configuration/the_basics.html',
    line: '1 file would be reformatted, 11 files would be left unchanged.',
    category: 'compile_error',
  },
  {
    family: 'ruff format --check',
    doc: 'https://docs.astral.sh/ruff/formatter/',
    line: 'Would reformat: app/routers/api_catalog.py',
    category: 'compile_error',
  },
  {
    family: 'Prettier --check file list',
    doc: 'https://prettier.io/docs/cli#--check',
    line: '[warn] src/features/slot-board/ui/SlotTile.tsx',
    category: 'compile_error',
  },
  {
    family: "dash: a command the job's script runs is not installed",
    doc: 'https://git.kernel.org/pub/scm/utils/dash/dash.git/tree/src/exec.c',
    line: '/bin/sh: 1: gawk: not found',
    category: 'script_error',
  },
  {
    family: "bash: a syntax error in the job's own script, not in compiled code",
    doc: 'https://www.gnu.org/software/bash/manual/bash.html#Shell-Syntax',
    line: "./build.sh: line 12: syntax error near unexpected token `fi'",
    category: 'script_error',
  },
  {
    family: "dash: a syntax error in the job's own script",
    doc: 'https://git.kernel.org/pub/scm/utils/dash/dash.git/tree/src/parser.c',
    line: '/bin/sh: 1: Syntax error: "fi" unexpected (expecting "then")',
    category: 'script_error',
  },
];

/** Lines that look like a family above but must not take its category (or any error kind). */
const LOOKALIKES: Lookalike[] = [
  // Surefire's and TextTest's summaries of a passing run.
  {
    family: 'passing test summary',
    line: '[INFO] Tests run: 35, Failures: 0, Errors: 0, Skipped: 1',
    not: 'test_failure',
  },
  {
    family: 'passing TextTest summary',
    line: 'Tests Run: 13, Failures: 0',
    not: 'test_failure',
  },
  // A GHC warning is printed with `warning:`.
  {
    family: 'GHC warning',
    line: 'src/Main.hs:3:1: warning: [GHC-40910] [-Wunused-top-binds]',
    not: 'compile_error',
  },
  // Dart warnings say `Warning:`.
  {
    family: 'Dart warning',
    line: "lib/main.dart:3:8: Warning: Operand of null-aware operation '!' has type 'String'.",
    not: 'compile_error',
  },
  // NuGet's NU1605 as a warning (without TreatWarningsAsErrors) does not fail the restore.
  {
    family: 'NU1605 warning',
    line: '/src/App/App.csproj : warning NU1605: Detected package downgrade: Foo from 2.0.0 to 1.0.0.',
    not: 'dependency_network',
  },
  // MSB3073 is a command's exit code (a PostBuild script), not the compiler.
  {
    family: 'MSB3073 exec task',
    line: '/src/App/App.csproj(42,5): error MSB3073: The command "./post.sh" exited with code 1.',
    not: 'compile_error',
  },
  // Echoed commands and passing tests that quote the wording.
  {
    family: 'echoed Next.js build',
    line: '+ echo "Failed to compile."',
    not: 'compile_error',
  },
  {
    family: 'passing test quoting dash',
    line: '  ✓ reports "/bin/sh: 1: foo: not found" as a missing tool (3 ms)',
    not: 'script_error',
  },
  {
    family: 'tsc in watch mode, no errors',
    line: 'Found 0 errors. Watching for file changes.',
    not: 'compile_error',
  },
  {
    family: 'black with nothing to change',
    line: 'All done! ✨ 🍰 ✨ 12 files would be left unchanged.',
    not: 'compile_error',
  },
  {
    family: 'Prettier option warning',
    line: '[warn] Ignored unknown option { foo: true }.',
    not: 'compile_error',
  },
  // `dart format` without --set-exit-if-changed prints the same summary after rewriting files.
  {
    family: 'dart format that rewrote a file',
    line: 'Formatted 51 files (1 changed) in 2.19 seconds.',
    not: 'compile_error',
  },
  // A coverage report task failing is not a failing test.
  {
    family: 'coverage report task',
    line: "Execution failed for task ':app:jacocoTestReport'.",
    not: 'test_failure',
  },
  {
    family: 'Python logging line',
    line: 'ERROR in processing the request, retrying',
    not: 'compile_error',
  },
  {
    family: 'Bazel verdict',
    line: 'FAILED: Build did NOT complete successfully',
    not: 'compile_error',
  },
  {
    family: 'Gradle compile task starting',
    line: '> Task :app:compileDebugKotlin',
    not: 'compile_error',
  },
  { family: 'webpack warning', line: 'WARNING in ./src/index.js 3:0-20', not: 'compile_error' },
  {
    family: 'esbuild warning',
    line: '▲ [WARNING] Duplicate key "x" in object literal',
    not: 'compile_error',
  },
];

describe('zero-shot build rules: documented output of build tools', () => {
  itClassifiesDocumentedLines(DOCUMENTED, LOOKALIKES);

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

  it('calls a Vite build that cannot find an installed package a dependency problem', () => {
    // Vite's output for an import of a package missing from package.json (https://vite.dev/guide/build).
    const log = [
      '$ npm run build',
      '> app@0.0.0 build',
      '> vite build',
      'vite v5.4.8 building for production...',
      'transforming...',
      '✓ 34 modules transformed.',
      'x Build failed in 1.02s',
      'error during build:',
      '[vite]: Rollup failed to resolve import "react-quill" from "/app/src/components/RichTextEditor.jsx".',
      'This is most likely unintended because it can break your application at runtime.',
      'If you do want to externalize this module explicitly add it to',
      '`build.rollupOptions.external`',
      'npm ERR! code 1',
    ];
    expectDiagnosis(log, 'dependency_network');
  });

  it("calls a missing tool in the job's shell a script error, with the tool quoted", () => {
    // dash's message for a command not on PATH (https://git.kernel.org/pub/scm/utils/dash/dash.git/tree/src/exec.c).
    const log = [
      '$ make kernel',
      '  SYNC    include/config/auto.conf',
      '/bin/sh: 1: gawk: not found',
      'make[1]: *** [scripts/Makefile.build:41: scripts/basic] Error 127',
      'make: *** [Makefile:600: scripts] Error 2',
    ];
    const d = diagnoseLines(log);
    expect(d.category).toBe('script_error');
    expect(d.evidence[0]?.message).toBe('/bin/sh: 1: gawk: not found');
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
