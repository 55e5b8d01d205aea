import { describe, expect, it } from 'vitest';
import { classifyLine } from '../classify-line.ts';
import { stripCiPrefix } from '../../ci-prefix.ts';
import { expectDiagnosis } from '../../../testing/documented-lines.ts';
import { itClassifiesFamilyLines, type RuleCase } from '../rule-tester.ts';
import { configFamily } from './config.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  {
    what: 'Flutter building for a platform the project lacks',
    from: 'https://docs.flutter.dev/platform-integration/web/building',
    line: 'This project is not configured for the web.',
    rule: 'config/flutter-platform',
    category: 'config_yaml',
    lookalike: 'Building with sound null safety for the web.',
  },
  {
    what: "a tool's configuration file that is not there",
    from: 'https://docs.zephyrproject.org/latest/develop/west/manifest.html',
    line: "FATAL ERROR: can't init: no west.yml found in /tmp/zmk-config/config",
    rule: 'config/config-file-missing',
    category: 'config_yaml',
    lookalike: '=== Initializing from existing manifest repository config (west.yml)',
  },
  {
    what: ".NET's connection-string parser refusing the setting",
    from: 'https://learn.microsoft.com/dotnet/api/system.data.common.dbconnectionstringbuilder',
    line: 'System.ArgumentException: Format of the initialization string does not conform to specification starting at index 0.',
    rule: 'config/app-settings',
    category: 'config_yaml',
    lookalike:
      "info: Microsoft.EntityFrameworkCore.Database.Connection[20000] Opening connection to database 'app'",
  },
  {
    what: "a program's own configuration check",
    from: 'https://zod.dev/error-handling',
    line: 'ERROR: Config file is not valid',
    rule: 'config/app-settings',
    category: 'config_yaml',
    lookalike: 'Config file is valid, starting server',
  },
  {
    what: 'a program naming the environment variable it needs',
    from: 'https://12factor.net/config',
    line: 'Error: Missing required environment variable: DATABASE_URL',
    rule: 'config/missing-env-var',
    category: 'config_yaml',
    lookalike: 'warning: ANDROID_NDK_HOME is not set, using default',
  },
  {
    what: 'an environment variable reported unset',
    from: 'https://12factor.net/config',
    line: 'ValueError: OPENAI_API_KEY environment variable is not set',
    rule: 'config/missing-env-var',
    category: 'config_yaml',
    lookalike: '$ export OPENAI_API_KEY=$OPENAI_KEY',
  },
  {
    what: 'a setting that must be set',
    from: 'https://12factor.net/config',
    line: 'Error: STRIPE_SECRET_KEY must be set',
    rule: 'config/missing-env-var',
    category: 'config_yaml',
    lookalike: 'STRIPE_SECRET_KEY is set, continuing',
  },
  {
    what: "Python's os.environ without the variable",
    from: 'https://docs.python.org/3/library/os.html#os.environ',
    line: "KeyError: 'DATABASE_URL'",
    rule: 'config/missing-env-var',
    category: 'config_yaml',
    // A dictionary's missing key is the program's own error.
    lookalike: "KeyError: 'name'",
  },
  {
    what: 'the Gradle wrapper without a JDK',
    from: 'https://github.com/gradle/gradle/blob/master/gradlew',
    line: "ERROR: JAVA_HOME is not set and no 'java' command could be found in your PATH.",
    rule: 'config/missing-env-var',
    category: 'config_yaml',
    lookalike: 'JAVA_HOME=/usr/lib/jvm/temurin-17-jdk-amd64',
  },
  {
    what: 'a Supabase client without its URL and key',
    from: 'https://supabase.com/docs/guides/auth/server-side/creating-a-client',
    line: "Error: @supabase/ssr: Your project's URL and API key are required to create a Supabase client!",
    rule: 'config/missing-env-var',
    category: 'config_yaml',
    lookalike: 'Creating a Supabase client for https://abc.supabase.co',
  },
  // ---- Build configuration ----
  {
    what: "Docker's legacy builder copying a path outside the build context",
    from: 'https://github.com/moby/moby/blob/master/builder/dockerfile/copy.go',
    line: 'COPY failed: file not found in build context or excluded by .dockerignore: stat app/requirements.txt: file does not exist',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: 'Step 3/4 : COPY app/requirements.txt .',
  },
  {
    what: 'docker given an image name it cannot parse',
    from: 'https://github.com/distribution/reference/blob/main/reference.go',
    line: 'docker: invalid reference format: repository name must be lowercase.',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: '+ docker build -t ghcr.io/org/app:latest .',
  },
  {
    what: 'docker build given a context path that is not there',
    from: 'https://github.com/docker/cli/blob/master/cli/command/image/build.go',
    line: 'unable to prepare context: path "./app" not found',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: 'Sending build context to Docker daemon  54.78kB',
  },
  {
    what: 'tsc given an option it does not know',
    from: 'https://github.com/microsoft/TypeScript/blob/main/src/compiler/diagnosticMessages.json',
    line: "tsconfig.json(4,5): error TS5025: Unknown compiler option 'strictNullCheck'. Did you mean 'strictNullChecks'?",
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    // A type error is the code's, not the configuration's.
    lookalike: "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
  },
  {
    what: 'tsc unable to read the tsconfig it extends',
    from: 'https://github.com/microsoft/TypeScript/blob/main/src/compiler/diagnosticMessages.json',
    line: "error TS5083: Cannot read file '/app/tsconfig.base.json'.",
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: '+ npx tsc -p tsconfig.build.json',
  },
  {
    what: 'Jest whose patterns match no test file',
    from: 'https://github.com/jestjs/jest/blob/main/packages/jest-core/src/getNoTestFound.ts',
    line: 'No tests found, exiting with code 1',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    // With --passWithNoTests the same finding fails nothing.
    lookalike: 'No tests found, exiting with code 0',
  },
  {
    what: 'Vitest whose patterns match no test file',
    from: 'https://vitest.dev/config/#passwithnotests',
    line: 'No test files found, exiting with code 1',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: 'No test files found, exiting with code 0',
  },
  {
    what: 'pytest given a path that is not there',
    from: 'https://github.com/pytest-dev/pytest/blob/main/src/_pytest/main.py',
    line: 'ERROR: file or directory not found: tests/unit',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    // A test's own message about a file it looked for is the test's.
    lookalike:
      'E       FileNotFoundError: [Errno 2] No such file or directory: tests/data/fixture.json',
  },
  {
    what: "Cargo unable to parse the project's manifest",
    from: 'https://github.com/rust-lang/cargo/blob/master/src/cargo/util/toml/mod.rs',
    line: 'error: failed to parse manifest at `/builds/x/Cargo.toml`',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    // A registry crate's manifest too new for the toolchain is a dependency problem.
    lookalike:
      'error: failed to parse manifest at `/root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/getrandom-0.3.1/Cargo.toml`',
  },
  {
    what: 'Cargo run outside a crate',
    from: 'https://github.com/rust-lang/cargo/blob/master/src/cargo/util/important_paths.rs',
    line: 'error: could not find `Cargo.toml` in `/builds/x` or any parent directory',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: '   Compiling serde v1.0.210',
  },
  {
    what: 'Go outside a module',
    from: 'https://github.com/golang/go/blob/master/src/cmd/go/internal/modload/init.go',
    line: "go: go.mod file not found in current directory or any parent directory; see 'go help modules'",
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: 'go: downloading github.com/stretchr/testify v1.9.0',
  },
  {
    what: 'Terraform without a required variable',
    from: 'https://developer.hashicorp.com/terraform/language/values/variables#variables-on-the-command-line',
    line: '│ Error: No value for required variable',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: '│ Warning: Value for undeclared variable',
  },
  {
    what: 'a Gradle build script calling a method the DSL lacks',
    from: 'https://github.com/gradle/gradle/blob/master/platforms/core-configuration/model-core/src/main/java/org/gradle/internal/metaobject/BeanDynamicObject.java',
    line: '> Could not find method implementation() for arguments [org.example:lib:1.0] on object of type org.gradle.api.internal.artifacts.dsl.dependencies.DefaultDependencyHandler.',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: '> Configure project :app',
  },
  {
    what: 'Gradle asked for a project the build does not have',
    from: 'https://docs.gradle.org/current/userguide/command_line_interface.html#executing_tasks_in_multi_project_builds',
    line: "Project 'app' not found in root project 'demo'.",
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: "Root project 'demo'",
  },
  {
    what: 'actions/setup-node caching without a lock file',
    from: 'https://github.com/actions/setup-node/blob/main/src/cache-utils.ts',
    line: 'Error: Dependencies lock file is not found in /home/runner/work/x/x. Supported file patterns: package-lock.json,npm-shrinkwrap.json,yarn.lock',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: 'Found in cache @ /opt/hostedtoolcache/node/20.20.2/x64',
  },
  {
    what: 'a Cobra/pflag CLI given a flag it lacks',
    from: 'https://github.com/spf13/pflag/blob/master/flag.go',
    line: 'unknown flag: --platfrom',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    // The flag's own line in `--help` output.
    lookalike: '      --platform string         Set platform if server is multi-platform capable',
  },
  {
    what: 'a Cobra/pflag CLI given a shorthand it lacks',
    from: 'https://github.com/spf13/pflag/blob/master/flag.go',
    line: "Error: unknown shorthand flag: 'x' in -x",
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: '+ kubectl get pods -n prod -o wide',
  },
  {
    what: "Maven's model validation of a dependency",
    from: 'https://github.com/apache/maven/blob/maven-3.9.x/maven-model-builder/src/main/java/org/apache/maven/model/validation/DefaultModelValidator.java',
    line: "[ERROR] 'dependencies.dependency.version' for org.slf4j:slf4j-api:jar is missing. @ line 42, column 21",
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    // The same check on a plugin's version is a warning printed by many passing builds.
    lookalike:
      "[WARNING] 'build.plugins.plugin.version' for org.apache.maven.plugins:maven-jar-plugin is missing. @ line 60, column 15",
  },
  {
    what: 'Yarn 1 run where there is no package.json',
    from: 'https://github.com/yarnpkg/yarn/blob/master/src/reporters/lang/en.js',
    line: 'error Couldn\'t find a package.json file in "/builds/x"',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    // Two installs racing in Yarn's cache (https://github.com/yarnpkg/yarn/issues/683).
    lookalike:
      'error Couldn\'t find a package.json file in "/home/ubuntu/.cache/yarn/v6/npm-lodash-4.17.21"',
  },
  {
    what: 'the AWS CLI with a profile never configured',
    from: 'https://github.com/boto/botocore/blob/develop/botocore/exceptions.py',
    line: 'The config profile (deploy) could not be found',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: '+ aws ecr get-login-password --profile deploy --region eu-west-1',
  },
  {
    what: 'the AWS CLI without a region',
    from: 'https://github.com/boto/botocore/blob/develop/botocore/exceptions.py',
    line: 'You must specify a region. You can also configure your region by running "aws configure".',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'Default region name [None]: eu-west-1',
  },
  {
    what: 'a Gradle build script reading a property nobody set',
    from: 'https://github.com/gradle/gradle/blob/master/platforms/core-configuration/model-core/src/main/java/org/gradle/internal/metaobject/BeanDynamicObject.java',
    line: "> Could not get unknown property 'releaseStorePassword' for project ':app' of type org.gradle.api.Project.",
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: '> Task :app:processReleaseResources',
  },
  {
    what: 'Maven run without a goal',
    from: 'https://maven.apache.org/guides/introduction/introduction-to-the-lifecycle.html',
    line: '[ERROR] No goals have been specified for this build. You must specify a valid lifecycle phase or a goal in the format <plugin-prefix>:<goal> or <plugin-group-id>:<plugin-artifact-id>[:<plugin-version>]:<goal>.',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: '[INFO] --- maven-surefire-plugin:3.2.5:test (default-test) @ app ---',
  },
  {
    what: 'Maven given a settings file that is not there',
    from: 'https://github.com/apache/maven/blob/maven-3.9.x/maven-embedder/src/main/java/org/apache/maven/cli/MavenCli.java',
    line: '[ERROR] The specified user settings file does not exist: /builds/x/ci_settings.xml',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: '+ mvn -s ci_settings.xml -B deploy',
  },
  {
    what: 'the Android Gradle plugin without an SDK location',
    from: 'https://developer.android.com/tools/variables#android_home',
    line: "SDK location not found. Define a valid SDK location with an ANDROID_HOME environment variable or by setting the sdk.dir path in your project's local properties file at '/builds/x/android/local.properties'.",
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'export ANDROID_HOME=/opt/android-sdk',
  },
  {
    what: 'Next.js without a pages or app directory',
    from: 'https://github.com/vercel/next.js/blob/canary/packages/next/src/lib/find-pages-dir.ts',
    line: "Error: > Couldn't find any `pages` or `app` directory. Please create one under the project root",
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: '   Creating an optimized production build ...',
  },
  {
    what: 'Rollup and Vite without their entry',
    from: 'https://github.com/rollup/rollup/blob/master/src/utils/logs.ts',
    line: 'Could not resolve entry module "index.html".',
    rule: 'config/project-settings',
    category: 'config_yaml',
    // A source file importing a file that is not there is the code's error.
    lookalike: 'Could not resolve "./components/Header" from "src/App.tsx"',
  },
  {
    what: 'the Angular CLI outside a workspace',
    from: 'https://github.com/angular/angular-cli/blob/main/packages/angular/cli/src/command-builder/command-module.ts',
    line: 'Error: This command is not available when running the Angular CLI outside a workspace.',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: '+ npx ng build --configuration production',
  },
  {
    what: "Vercel's output directory missing after the build",
    from: 'https://vercel.com/docs/errors/error-list#missing-public-directory',
    line: 'Error: No Output Directory named "dist" found after the Build completed. You can configure the Output Directory in your Project Settings.',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'Build Completed in /vercel/output [42s]',
  },
  {
    what: 'actions/configure-pages on a repository without Pages',
    from: 'https://github.com/actions/configure-pages/blob/main/src/api-client.js',
    line: 'Error: Get Pages site failed. Please verify that the repository has Pages enabled and configured to build using GitHub Actions, or consider exploring the `enablement` parameter for this action.',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: '##[group]Run actions/configure-pages@v5',
  },
  {
    what: 'npm 6 run where there is no package.json',
    from: 'https://docs.npmjs.com/cli/v6/configuring-npm/package-json',
    line: "npm ERR! enoent ENOENT: no such file or directory, open '/builds/x/package.json'",
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    // A test reading a fixture it lacks is the test's failure, not the job's configuration.
    lookalike:
      "Error: ENOENT: no such file or directory, open '/builds/x/test/fixtures/package.json'",
  },
  {
    what: 'a tool warning about a flag it does not know',
    from: 'https://github.com/spf13/pflag/blob/master/flag.go',
    line: 'Error: unknown flag: --frozen-lockfiles',
    rule: 'config/missing-path-or-name',
    category: 'config_yaml',
    lookalike: 'WARNING: unknown flag: --experimental ignored',
  },
  {
    what: 'a Gradle build applying a script file that is not there',
    from: 'https://github.com/gradle/gradle/blob/master/platforms/core-runtime/resources/src/main/java/org/gradle/internal/resource/UriTextResource.java',
    line: "> Could not read script '/builds/x/android/capacitor-cordova-android-plugins/cordova.variables.gradle' as it does not exist.",
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: '> Configure project :capacitor-cordova-android-plugins',
  },
  {
    what: 'a PostCSS configuration naming Tailwind CSS 4 the old way',
    from: 'https://tailwindcss.com/docs/installation/using-postcss',
    line: "[vite:css] [postcss] It looks like you're trying to use `tailwindcss` directly as a PostCSS plugin. The PostCSS plugin has moved to a separate package, so to continue using Tailwind CSS with PostCSS you'll need to install `@tailwindcss/postcss` and update your PostCSS configuration.",
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike:
      'warn - The `content` option in your Tailwind CSS configuration is missing or empty.',
  },
  {
    what: 'a requirements file pip cannot parse',
    from: 'https://github.com/pypa/pip/blob/main/src/pip/_internal/req/constructors.py',
    line: "ERROR: Invalid requirement: 'django==' (from line 3 of requirements.txt)",
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike:
      'Requirement already satisfied: django==5.0.6 in /usr/local/lib/python3.12/site-packages',
  },
  {
    what: "a Ruby other than the Gemfile's",
    from: 'https://bundler.io/guides/gemfile_ruby.html',
    line: 'Your Ruby version is 3.0.6, but your Gemfile specified 3.2.2',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'Using ruby 3.2.2 (x86_64-linux) from /opt/hostedtoolcache/Ruby/3.2.2',
  },
  {
    what: 'setup-node pointed at a version file that is not there',
    from: 'https://github.com/actions/setup-node/blob/main/src/util.ts',
    line: 'Error: The specified node version file at: /home/runner/work/x/x/.nvmrc does not exist',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'Resolved .nvmrc as 20.11.1',
  },
  {
    what: 'a Gradle wrapper whose jar was never committed',
    from: 'https://docs.gradle.org/current/userguide/gradle_wrapper.html',
    line: 'Error: Could not find or load main class org.gradle.wrapper.GradleWrapperMain',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'Downloading https://services.gradle.org/distributions/gradle-8.7-bin.zip',
  },
  {
    what: 'Flutter run outside a package',
    from: 'https://github.com/flutter/flutter/blob/master/packages/flutter_tools/lib/src/runner/flutter_command.dart',
    line: 'Error: No pubspec.yaml file found.',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'Resolving dependencies in `/builds/x`...',
  },
  {
    what: 'Composer run where there is no composer.json',
    from: 'https://github.com/composer/composer/blob/main/src/Composer/Factory.php',
    line: 'Composer could not find a composer.json file in /builds/x',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'Installing dependencies from lock file (including require-dev)',
  },
  {
    what: 'Mix run outside a project',
    from: 'https://github.com/elixir-lang/elixir/blob/main/lib/mix/lib/mix/exceptions.ex',
    line: '** (Mix) Could not find a Mix.Project, please ensure you are running Mix in a directory with a mix.exs file',
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: '* Getting jason (Hex package)',
  },
  {
    what: '`dotnet run` where there is no project',
    from: 'https://learn.microsoft.com/dotnet/core/tools/dotnet-run',
    line: "Couldn't find a project to run. Ensure a project exists in /builds/x, or pass the path to the project using --project.",
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: '+ dotnet run --project src/Api/Api.csproj',
  },
  {
    what: 'CocoaPods run where there is no Podfile',
    from: 'https://github.com/CocoaPods/CocoaPods/blob/master/lib/cocoapods/command.rb',
    line: "[!] No `Podfile' found in the project directory.",
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'Analyzing dependencies',
  },
  {
    what: 'CocoaPods unable to evaluate the Podfile',
    from: 'https://github.com/CocoaPods/Core/blob/master/lib/cocoapods-core/podfile.rb',
    line: "[!] Invalid `Podfile` file: undefined method `keep_source_code_for_prebuilt_frameworks!' for #<Pod::Podfile:0x00007fd603955728>.",
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'Analyzing dependencies',
  },
  {
    what: 'Bazel run outside a workspace',
    from: 'https://bazel.build/external/overview',
    line: "ERROR: The 'build' command is only supported from within a workspace (below a directory having a MODULE.bazel file).",
    rule: 'config/project-settings',
    category: 'config_yaml',
    lookalike: 'INFO: Analyzed 12 targets (0 packages loaded, 0 targets configured).',
  },
  {
    what: 'CMake given a source directory that is not there',
    from: 'https://cmake.org/cmake/help/latest/manual/cmake.1.html',
    line: 'CMake Error: The source directory "/builds/x/build" does not exist.',
    rule: 'config/project-settings',
    category: 'config_yaml',
    // A missing library found by a Find module is a dependency problem.
    lookalike:
      'CMake Error at /usr/share/cmake-3.28/Modules/FindPackageHandleStandardArgs.cmake:230 (message): Could NOT find ZLIB (missing: ZLIB_LIBRARY ZLIB_INCLUDE_DIR)',
  },
  {
    what: 'npm run of a script package.json does not define',
    from: 'https://docs.npmjs.com/cli/v10/commands/npm-run-script',
    line: 'npm error Missing script: "lint"',
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike: '> app@1.0.0 lint',
  },
  {
    what: 'Yarn Berry run of a script that does not exist',
    from: 'https://yarnpkg.com/cli/run',
    line: 'Usage Error: Couldn\'t find a script named "lint".',
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike: '$ yarn run lint',
  },
  {
    what: 'argparse required arguments',
    from: 'https://docs.python.org/3/library/argparse.html#exiting-methods',
    line: 'deploy.py: error: the following arguments are required: --env',
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike: '  -h, --help   show this help message and exit',
  },
  {
    what: 'BuildKit Dockerfile parse error',
    from: 'https://github.com/containerd/nerdctl/pull/1632',
    line: 'ERROR: failed to solve: dockerfile parse error on line 81: unknown instruction: echo',
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike: '#1 [internal] load build definition from Dockerfile',
  },
  {
    what: 'BuildKit without a Dockerfile',
    from: 'https://docs.docker.com/reference/cli/docker/buildx/build/#file',
    line: 'ERROR: failed to solve: failed to read dockerfile: open Dockerfile: no such file or directory',
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike: '#1 transferring dockerfile: 2B done',
  },
  {
    what: 'ESLint 8 without a configuration',
    from: 'https://eslint.org/docs/latest/use/troubleshooting/',
    line: 'No ESLint configuration found in /home/runner/work/app/src.',
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike: 'Oops! Something went wrong! :(',
  },
  {
    what: 'ESLint plugin declared in the config but not installed',
    from: 'https://eslint.org/docs/latest/use/troubleshooting/couldnt-find-the-plugin',
    line: "Error: Failed to load plugin 'react' declared in '.eslintrc.js': Cannot find module 'eslint-plugin-react'",
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike: 'ESLint: 8.57.0',
  },
  {
    what: "pip refusing a distribution's Python (PEP 668)",
    from: 'https://packaging.python.org/en/latest/specifications/externally-managed-environments/',
    line: 'error: externally-managed-environment',
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike: 'hint: See PEP 668 for the detailed specification.',
  },
  {
    what: 'Gradle asked for a task the build does not define',
    from: 'https://docs.gradle.org/current/userguide/command_line_interface.html#executing_tasks',
    line: "Task 'intTest' not found in root project 'app'.",
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike: '> Task :app:test',
  },
  {
    what: 'Cobra CLI without a required flag',
    from: 'https://github.com/spf13/cobra/blob/main/site/content/user_guide.md#required-flags',
    line: 'Error: required flag(s) "region" not set',
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike: '      --region string   the region to deploy to',
  },
  {
    what: 'Compose file with a key the schema does not allow',
    from: 'https://docs.docker.com/reference/compose-file/',
    line: 'validating /home/runner/work/app/docker-compose.yml: services.web Additional property buidl is not allowed',
    rule: 'config/build-tool-config',
    category: 'config_yaml',
    lookalike:
      'WARN[0000] /home/runner/work/app/docker-compose.yml: the attribute `version` is obsolete, it will be ignored',
  },
  {
    what: "go-yaml's parse error",
    from: 'https://github.com/go-yaml/yaml/blob/v3/scannerc.go',
    line: 'yaml: line 12: mapping values are not allowed in this context',
    rule: 'config/yaml',
    category: 'config_yaml',
  },
];

/** Lines quoted from public CI logs (`from`), prefixes included. */
const QUOTED: RuleCase[] = [
  {
    what: 'Meson given a value its option does not take',
    from: 'https://lore.kernel.org/linux-media/772924952.14.1600690692800@builder.linuxtv.org/',
    line: 'ERROR: Value "true" for combo option is not one of the choices. Possible choices are: "enabled", "disabled", "auto".',
    rule: 'config/tool-usage',
    category: 'config_yaml',
  },
  {
    what: 'a tool rejecting its configuration file (golangci-lint v2 config, v1 binary)',
    from: 'https://github.com/rtcdance/streamgate/blob/b9ccf74d4d44819a9bfe276b683f64fa47be1443/ci.log',
    line: '2026-01-29T07:54:11.5648845Z Error: you are using a configuration file for golangci-lint v2 with golangci-lint v1: please use golangci-lint v2',
    rule: 'config/config-file-rejected',
    category: 'config_yaml',
  },
  {
    what: 'a patch that no longer applies',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/cpupower_standard_x86_64.log',
    line: '[   49s] 1 out of 1 hunk FAILED -- saving rejects to file tools/power/cpupower/Makefile.rej',
    rule: 'config/patch-does-not-apply',
    category: 'config_yaml',
  },
  {
    what: 'xcodebuild asked for a simulator destination that does not exist',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Swift/SwiftyJSON%40SwiftyJSON/failed/364917910.log',
    line: 'xcodebuild: error: Unable to find a destination matching the provided destination specifier:',
    rule: 'config/tool-usage',
    category: 'config_yaml',
  },
  {
    what: 'javac given a release the JDK does not know (Maven)',
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/maven/1932650872-orig.log',
    line: '2022-03-04T08:20:02.6681075Z [ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.9.0:compile (default-compile) on project spring-boot-admin-server: Fatal error compiling: invalid target release: 17 -> [Help 1]',
    rule: 'config/tool-usage',
    category: 'config_yaml',
  },
  {
    what: 'Travis running without a .travis.yml',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/TeX/soulmachine%40leetcode/failed/172062089.log',
    line: '\u001b[0K\u001b[31;1mCould not find .travis.yml, using standard configuration.\u001b[0m',
    rule: 'config/tool-usage',
    category: 'config_yaml',
  },
  {
    what: "a GitHub Action's required input not given",
    from: 'https://github.com/sawayamakouji/slide202507/blob/ea5a75a0ed8d2283905098c84e91675dc47b8d29/error.md',
    line: '2025-07-06T20:58:48.2213810Z Error: Input required and not supplied: parent_folder_id',
    rule: 'config/tool-usage',
    category: 'config_yaml',
  },
  {
    what: "Travis's default Ruby build finding no Rakefile",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/CSS/google%40material-design-icons/failed/92806560.log',
    line: 'No Rakefile found (looking for: rakefile, Rakefile, rakefile.rb, Rakefile.rb)',
    rule: 'config/tool-usage',
    category: 'config_yaml',
  },
];

describe('config rules', () => {
  itClassifiesFamilyLines(configFamily, { documented: DOCUMENTED, quoted: QUOTED });
});

describe('config: lines', () => {
  it('reads a .yaml file name or a tool-cache miss as what they are, not as a YAML or dependency error', () => {
    // https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/python/2505733928-orig.log
    expect(
      classifyLine(
        stripCiPrefix(
          '2022-06-15T23:51:06.6554440Z Error from server: error when creating "/tmp/k8s-AmbassadorTest-trimmed.yaml": conversion webhook for getambassador.io/v3alpha1, Kind=TracingService failed: Post "https://emissary-apiext.emissary-system.svc:443/?timeout=30s": dial tcp 10.43.3.6:443: connect: connection refused',
        ),
      ).category,
    ).toBe('dependency_network');
    // https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/gradle/2085562467-orig.log
    expect(
      classifyLine(
        stripCiPrefix(
          '2022-04-03T14:28:02.3332779Z Java 18 was not found in tool-cache. Trying to unpack JDK file...',
        ),
      ).kind,
    ).not.toBe('error');
  });

  it("reads Go's missing module behind a missing go.mod as the configuration", () => {
    // https://github.com/golang/go/blob/master/src/cmd/go/internal/modload/import.go
    const line =
      "main.go:6:2: no required module provides package rsc.io/quote: go.mod file not found in current directory or any parent directory; see 'go help modules'";
    expect(classifyLine(line).category).toBe('config_yaml');
  });
});

describe('config: whole logs through the analyser', () => {
  it("calls Flutter's missing web platform a configuration problem", () => {
    // GitHub Actions log, https://github.com/utp-developer1/attendance_app/blob/51392b06a4cbf08f481e07b0cc3d1fe639097946/workflow_log.txt
    // (no licence file; quoted as a fixture).
    const log = [
      '2025-12-11T04:29:50.6026322Z ##[group]Run flutter build web --release',
      '2025-12-11T04:29:50.6026684Z flutter build web --release',
      '2025-12-11T04:29:50.6059913Z shell: /usr/bin/bash -e {0}',
      '2025-12-11T04:29:50.6061364Z ##[endgroup]',
      '2025-12-11T04:29:50.9525566Z This project is not configured for the web.',
      '2025-12-11T04:29:50.9598284Z To configure this project for the web, run flutter create . --platforms web',
      '2025-12-11T04:29:50.9608482Z ##[error]Process completed with exit code 1.',
    ];
    expectDiagnosis(log, 'config_yaml', 'not configured for the web');
  });

  it('calls an app that stops for a missing environment variable a configuration problem', () => {
    // Railway deployment log, https://github.com/NaveenAntonyDsouza/matrimony/blob/884603a799993ea44bae617a6ad607a257e0ebaf/railway-logs.txt
    // (corpus log railway-matrimony-node-missing-phonepe-env-vars; no licence file, quoted as a fixture).
    const log = [
      '2025-09-28T18:57:34.572711134Z [inf]  > node server.js',
      '2025-09-28T18:57:34.572754172Z [err]  ❌ Missing PhonePe environment variables:',
      '2025-09-28T18:57:34.572758101Z [err]  PHONEPE_MERCHANT_ID: MISSING',
      '2025-09-28T18:57:34.572781109Z [err]  /app/services/phonepeService.js:28',
      "2025-09-28T18:57:34.572787299Z [err]        throw new Error('Missing required PhonePe environment variables. Please check your Railway environment variables.');",
      '2025-09-28T18:57:34.572791096Z [err]        ^',
      '2025-09-28T18:57:34.572794922Z [err]  ',
      '2025-09-28T18:57:34.572799056Z [err]  Error: Missing required PhonePe environment variables. Please check your Railway environment variables.',
      '2025-09-28T18:57:34.572806639Z [err]      at new PhonePeService (/app/services/phonepeService.js:28:13)',
      '2025-09-28T18:57:34.572841801Z [err]      at Object.<anonymous> (/app/routes/payments.js:4:24)',
      '2025-09-28T18:57:34.572861044Z [err]  Node.js v18.20.5',
    ];
    expectDiagnosis(log, 'config_yaml', 'Missing required PhonePe environment variables');
  });

  it('calls setup-node without a lock file a configuration problem', () => {
    // https://github.com/actions/setup-node/blob/main/src/cache-utils.ts
    const log = [
      '2024-05-01T10:00:00.0000000Z ##[group]Run actions/setup-node@v4',
      '2024-05-01T10:00:00.0000000Z with:',
      '2024-05-01T10:00:00.0000000Z   node-version: 20',
      '2024-05-01T10:00:00.0000000Z   cache: npm',
      '2024-05-01T10:00:00.0000000Z ##[endgroup]',
      '2024-05-01T10:00:01.0000000Z Found in cache @ /opt/hostedtoolcache/node/20.20.2/x64',
      '2024-05-01T10:00:01.0000000Z Environment details',
      '2024-05-01T10:00:01.0000000Z /opt/hostedtoolcache/node/20.20.2/x64/bin/npm config get cache',
      '2024-05-01T10:00:01.0000000Z /home/runner/.npm',
      '2024-05-01T10:00:01.0000000Z ##[error]Dependencies lock file is not found in /home/runner/work/x/x. Supported file patterns: package-lock.json,npm-shrinkwrap.json,yarn.lock',
    ];
    expectDiagnosis(log, 'config_yaml', 'Dependencies lock file');
  });

  it('calls a docker build copying a file outside its context a configuration problem', () => {
    // https://github.com/moby/moby/blob/master/builder/dockerfile/copy.go
    const log = [
      '$ docker build -t app .',
      'Sending build context to Docker daemon  54.78kB',
      'Step 1/4 : FROM python:3.12-slim',
      ' ---> 20e452a0a81a',
      'Step 2/4 : WORKDIR /usr/src/app',
      ' ---> Running in 999bd2264f28',
      'Removing intermediate container 999bd2264f28',
      ' ---> c4f81905508b',
      'Step 3/4 : COPY app/requirements.txt .',
      'COPY failed: file not found in build context or excluded by .dockerignore: stat app/requirements.txt: file does not exist',
      'ERROR: Job failed: exit code 1',
    ];
    expectDiagnosis(log, 'config_yaml');
  });

  it('calls Jest finding no tests a configuration problem, not a test failure', () => {
    // https://github.com/jestjs/jest/blob/main/packages/jest-core/src/getNoTestFound.ts
    const log = [
      '$ npm test -- tests/unit',
      '',
      '> app@1.0.0 test',
      '> jest tests/unit',
      '',
      'No tests found, exiting with code 1',
      'Run with `--passWithNoTests` to exit with code 0',
      'In /builds/x',
      '  30 files checked.',
      '  testMatch: **/__tests__/**/*.[jt]s?(x), **/?(*.)+(spec|test).[tj]s?(x) - 12 matches',
      '  testPathIgnorePatterns: /node_modules/ - 30 matches',
      '  testRegex:  - 0 matches',
      'Pattern: tests/unit - 0 matches',
      'npm error Lifecycle script `test` failed with error:',
      'npm error code 1',
      'ERROR: Job failed: exit code 1',
    ];
    expectDiagnosis(log, 'config_yaml', 'No tests found');
  });

  it('calls a Terraform plan without a required variable a configuration problem', () => {
    // https://developer.hashicorp.com/terraform/language/values/variables
    const log = [
      '$ terraform plan -input=false -out planfile',
      '╷',
      '│ Error: No value for required variable',
      '│ ',
      '│   on variables.tf line 1:',
      '│    1: variable "db_password" {',
      '│ ',
      '│ The root module input variable "db_password" is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable.',
      '╵',
      'ERROR: Job failed: exit code 1',
    ];
    expectDiagnosis(log, 'config_yaml');
  });

  it('calls a missing npm script a configuration problem', () => {
    // https://docs.npmjs.com/cli/v10/commands/npm-run-script
    const log = [
      '$ npm run lint',
      'npm error Missing script: "lint"',
      'npm error',
      'npm error To see a list of scripts, run:',
      'npm error   npm run',
      'npm error A complete log of this run can be found in: /home/runner/.npm/_logs/debug-0.log',
      'Error: Process completed with exit code 1.',
    ];
    expectDiagnosis(log, 'config_yaml');
  });
});
