/**
 * A project's or a tool's configuration pointing at what is not there or saying what the tool does
 * not accept.
 */
import { defineFamily } from '../rule.ts';

/** Configuration pointing at what is not there, or that a tool does not accept. */
export const configFamily = defineFamily({
  name: 'config',
  // prettier-ignore
  hints: [
    'err', 'exception', 'fail', 'fatal', 'exit', 'not found', 'no such', 'cannot', 'could not',
    "couldn't", 'undefined', 'unable', 'invalid', 'yaml', 'mapping', 'expected', 'unknown',
    'missing', 'unexpected', 'not allowed', 'does not exist', 'no output', 'resolv',
    'does not apply', 'not apply', 'rakefile', 'gemfile', 'not available', 'not valid',
    'eslint config', 'lock file', 'must specify a region', 'directly as a postcss plugin',
    "no `podfile' found", /^This project is not configured for the /,
    /^No (?:Linux|macOS|Windows) desktop project/,
  ],
  rules: {
    // Zero-shot (config-auth): build and CI configuration pointing at what is not there or naming
    // what the tool does not know, in the tools' own words, so that such jobs are not called script
    // errors. Before the dependency rules in precedence, so Go's `no required module provides
    // package …: go.mod file not found …` reads as the missing go.mod it is. Docker's legacy
    // builder copying a path outside the build context (`COPY failed: file not found in build
    // context or excluded by .dockerignore: stat app.py: file does not exist`,
    // https://github.com/moby/moby/blob/master/builder/dockerfile/copy.go), or given a context path
    // that is not there or an image name it cannot parse (`unable to prepare context: path "./app"
    // not found`, https://github.com/docker/cli/blob/master/cli/command/image/build.go; `invalid
    // reference format: repository name must be lowercase`, often `${{ github.repository }}` with
    // capitals, https://github.com/distribution/reference/blob/main/reference.go); tsc rejecting
    // its options or tsconfig (TS5023/TS5025 `Unknown compiler option`, TS5024, TS5057, TS5058,
    // TS5083 `Cannot read file`, TS6046 `Argument for '--target' option must be: …`,
    // https://github.com/microsoft/TypeScript/blob/main/src/compiler/diagnosticMessages.json);
    // Jest's and Vitest's test patterns matching no file (`No tests found, exiting with code 1`,
    // https://github.com/jestjs/jest/blob/main/packages/jest-core/src/getNoTestFound.ts; `exiting
    // with code 0` under --passWithNoTests fails nothing), and pytest given a path that is not
    // there (`ERROR: file or directory not found: tests/unit`, a usage error,
    // https://github.com/pytest-dev/pytest/blob/main/src/_pytest/main.py); Cargo without or with a
    // broken Cargo.toml of the project (`error: failed to parse manifest at `…``,
    // https://github.com/rust-lang/cargo/blob/master/src/cargo/util/toml/mod.rs; a manifest under
    // ~/.cargo is a dependency's, too new for the toolchain); Go outside a module (`go.mod file not
    // found in current directory or any parent directory`,
    // https://github.com/golang/go/blob/master/src/cmd/go/internal/modload/init.go); Terraform
    // without a required variable or with one its validation rejects
    // (https://github.com/hashicorp/terraform/blob/main/internal/backend/unparsed_value.go); Gradle
    // build scripts calling a method the DSL lacks (`Could not find method implementation() for
    // arguments [x] on object of type …`, Gradle's BeanDynamicObject) or naming a project that is
    // not in the build (`Project 'app' not found in root project 'demo'.`, TaskSelector);
    // actions/setup-node caching without a lock file
    // (https://github.com/actions/setup-node/blob/main/src/cache-utils.ts); Cobra/pflag CLIs
    // (docker, kubectl, helm, gh) given a flag they lack (`unknown flag: --platfrom`, `unknown
    // shorthand flag: 'x' in -x`, https://github.com/spf13/pflag/blob/master/flag.go); Maven's
    // model validation (`[ERROR] 'dependencies.dependency.version' for x:y:jar is missing.`,
    // https://github.com/apache/maven/blob/master/maven-model-builder/src/main/java/org/apache/maven/model/validation/DefaultModelValidator.java;
    // the same check on a plugin's version is only a [WARNING]); Yarn 1 and npm 6 without a
    // package.json (`error Couldn't find a package.json file in "/x"`,
    // https://github.com/yarnpkg/yarn/blob/master/src/reporters/lang/en.js, and npm 6's `npm ERR!
    // enoent ENOENT: no such file or directory, open '/x/package.json'`; a path in Yarn's cache or
    // node_modules is a broken install, not the project).
    'missing-path-or-name': {
      re: /\bfile not found in build context or excluded by \.dockerignore\b|\bunable to prepare context: path "[^"]+" not found\b|\binvalid reference format\b|\brepository name must be lowercase\b|\berror TS(?:5023|5024|5025|5057|5058|5083|6046): |^(?:\S+ )?No tests? (?:files )?found, exiting with code [1-9]|^ERROR: file or directory not found: \S|\bfailed to parse manifest at `(?![^`]*[\\/](?:\.cargo|registry)[\\/])|\bcould not find `Cargo\.toml` in `[^`]*` or any parent directory|\bgo\.mod file not found in current directory or any parent directory\b|^go: cannot find main module, but found \S+ in |^[\s│]*Error: (?:No value for required variable|Invalid value for (?:input )?variable)\b|\bCould not find method [\w$]+\(\) for arguments \[|\bProject '[^']+' not found in (?:root )?project '|\bProject with path '[^']+' could not be found in\b|\bDependencies lock file is not found in \S|^(?:Error: |(?![Ww][Aa][Rr][Nn])\S+: )?unknown (?:shorthand )?flag: (?:--?\w|'.' in -)|^\[(?:ERROR|FATAL)\]\s+'[\w.]+' for \S+ (?:is missing|must be)\b|\bCouldn't find a package\.json file in "(?![^"]*[\\/](?:\.cache[\\/]yarn|[Yy]arn[\\/][Cc]ache|node_modules)[\\/])|\bnpm (?:ERR!|error) enoent ENOENT: no such file or directory, open '(?![^']*node_modules)[^']*[\\/]package\.json'/,
      score: 89,
      kind: 'error',
      category: 'config_yaml',
    },
    // Zero-shot (config-auth): project settings that point at what is not there, for build tools
    // and hosting platforms: the AWS CLI with a profile or region never configured (`The config
    // profile (deploy) could not be found`, `You must specify a region.`,
    // https://github.com/boto/botocore/blob/develop/botocore/exceptions.py), a Gradle build script
    // reading a property nobody set (`Could not get unknown property 'x' for project ':app' of type
    // …`, Gradle's BeanDynamicObject as above), Maven run without a goal or with a settings file
    // that is not there
    // (https://github.com/apache/maven/blob/maven-3.9.x/maven-embedder/src/main/java/org/apache/maven/cli/MavenCli.java),
    // the Android Gradle plugin without an SDK location (`SDK location not found. Define a valid
    // SDK location with an ANDROID_HOME environment variable …`,
    // https://developer.android.com/tools/variables#android_home), Next.js without a `pages` or
    // `app` directory
    // (https://github.com/vercel/next.js/blob/canary/packages/next/src/lib/find-pages-dir.ts),
    // Rollup and Vite without their entry (`Could not resolve entry module "index.html".`,
    // https://github.com/rollup/rollup/blob/master/src/utils/logs.ts), the Angular CLI outside a
    // workspace
    // (https://github.com/angular/angular-cli/blob/main/packages/angular/cli/src/command-builder/command-module.ts),
    // Vercel's output directory missing after the build
    // (https://vercel.com/docs/errors/error-list#missing-public-directory) and
    // actions/configure-pages on a repository without Pages enabled
    // (https://github.com/actions/configure-pages/blob/main/src/api-client.js); a Gradle build
    // applying a script file that is not there (`Could not read script '…' as it does not exist.`,
    // https://github.com/gradle/gradle/blob/master/platforms/core-runtime/resources/src/main/java/org/gradle/internal/resource/UriTextResource.java)
    // and a PostCSS configuration naming Tailwind CSS 4 the old way (`It looks like you're trying
    // to use `tailwindcss` directly as a PostCSS plugin.`,
    // https://tailwindcss.com/docs/installation/using-postcss); a requirements file pip cannot
    // parse (`ERROR: Invalid requirement: 'django==' (from line 3 of requirements.txt)`,
    // https://github.com/pypa/pip/blob/main/src/pip/_internal/req/constructors.py), a Ruby other
    // than the Gemfile's (`Your Ruby version is 3.0.6, but your Gemfile specified 3.2.2`,
    // https://bundler.io/guides/gemfile_ruby.html), setup-node pointed at a version file that is
    // not there (https://github.com/actions/setup-node/blob/main/src/util.ts), a Gradle wrapper
    // whose jar was never committed (`Could not find or load main class
    // org.gradle.wrapper.GradleWrapperMain`,
    // https://docs.gradle.org/current/userguide/gradle_wrapper.html), and Flutter or pub run
    // outside a package (`Error: No pubspec.yaml file found.`,
    // https://github.com/flutter/flutter/blob/master/packages/flutter_tools/lib/src/runner/flutter_command.dart;
    // `Could not find a file named "pubspec.yaml" in "/x".`, https://dart.dev/tools/pub/cmd); and
    // the other package and build tools run where their project file is not: Composer
    // (https://github.com/composer/composer/blob/main/src/Composer/Factory.php), Mix (`** (Mix)
    // Could not find a Mix.Project, please ensure …`,
    // https://github.com/elixir-lang/elixir/blob/main/lib/mix/lib/mix/exceptions.ex), `dotnet run`
    // (https://learn.microsoft.com/dotnet/core/tools/dotnet-run), CocoaPods (`[!] No `Podfile'
    // found in the project directory.`,
    // https://github.com/CocoaPods/CocoaPods/blob/master/lib/cocoapods/command.rb), and one it
    // cannot evaluate (`[!] Invalid `Podfile` file: undefined method `x' for #<Pod::Podfile>`, a
    // plugin not loaded or a DSL method of another version,
    // https://github.com/CocoaPods/Core/blob/master/lib/cocoapods-core/podfile.rb,
    // `Podfile.from_ruby`), Bazel (`ERROR: The 'build' command is only supported from within a
    // workspace`, https://bazel.build/external/overview) and CMake (`CMake Error: The source
    // directory "/x" does not exist.`, https://cmake.org/cmake/help/latest/manual/cmake.1.html).
    'project-settings': {
      re: /\bThe config profile \([^)]+\) could not be found\b|\bYou must specify a region\. You can also configure your region\b|\bCould not get unknown property '[^']+' for \S|\bNo goals have been specified for this build\b|\bThe specified (?:user|global) (?:settings|toolchains) file does not exist: |\bSDK location not found\. Define (?:a valid SDK )?location with an ANDROID_\w+ environment variable\b|\bCouldn't find any `pages` or `app` directory\b|\bCould not resolve entry module\b|\bThis command is not available when running the Angular CLI outside a workspace\b|\bNo Output Directory named "[^"]+" found after the Build completed\b|\bGet Pages site failed\. Please verify that the repository has Pages enabled\b|\bCould not read script '[^']+' as it does not exist\b|\bIt looks like you're trying to use `tailwindcss` directly as a PostCSS plugin\b|^ERROR: Invalid requirement: '|\bYour Ruby version is \S+, but your Gemfile specified\b|\bThe specified node version file at: \S+ does not exist\b|\bCould not find or load main class org\.gradle\.wrapper\.GradleWrapperMain\b|\bNo pubspec\.yaml file found\b|\bCould not find a file named "pubspec\.yaml" in\b|\bComposer could not find a composer\.json file in\b|\bCould not find a Mix\.Project, please ensure\b|\bCouldn't find a project to run\. Ensure a project exists in\b|\bNo `Podfile' found in the project directory\b|\bInvalid `Podfile` file: |\bThe '\w+' command is only supported from within a workspace\b|^CMake Error: The source directory "[^"]*" does not exist\b/,
      score: 89,
      kind: 'error',
      category: 'config_yaml',
    },
    // A required setting never set: the job (or the app it builds or starts) reads an environment
    // variable nobody defined, a configuration failure rather than the script's own. Programs that
    // check say so in a few common shapes (`Missing required environment variable: DATABASE_URL`,
    // `Environment variable X is not set`, `STRIPE_SECRET_KEY must be set`); Python's
    // `os.environ[...]` raises `KeyError` with the variable's name
    // (https://docs.python.org/3/library/os.html#os.environ; an upper-case name with an underscore,
    // so a dictionary's `KeyError: 'name'` stays generic); the Gradle and Maven wrappers stop with
    // `ERROR: JAVA_HOME is not set and no 'java' command could be found in your PATH.`
    // (https://github.com/gradle/gradle, the gradlew script); and the Supabase clients refuse to
    // start without their URL and key (`@supabase/ssr: Your project's URL and API key are required
    // to create a Supabase client!`,
    // https://supabase.com/docs/guides/auth/server-side/creating-a-client).
    'missing-env-var': {
      re: /\b[Mm]issing (?:required )?(?:[\w.-]+ ){0,2}(?:environment|env) var(?:iable)?s?\b|\b(?:[Ee]nvironment|[Ee]nv) var(?:iable)? [`'"]?[A-Z][A-Z0-9]*_[A-Z0-9_]*[`'"]? (?:is )?(?:not set|not defined|missing|required|undefined|empty)\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]* (?:environment variable )?(?:is not set|must be (?:set|defined|provided))\b(?!, using)|^KeyError: '[A-Z][A-Z0-9]*_[A-Z0-9_]*'$|\bJAVA_HOME is not set and no 'java' command\b|\bURL and (?:API )?[Kk]ey are required to create a Supabase client\b/,
      score: 89,
      kind: 'error',
      category: 'config_yaml',
    },
    // Zero-shot (deps): a build or tool configuration that is missing or wrong. An npm/Yarn/pnpm
    // script that is not defined (https://docs.npmjs.com/cli/v10/commands/npm-run-script), no or an
    // unreadable package.json, `npm ci` without a lock file, the packageManager field naming
    // another tool (https://github.com/nodejs/corepack), Maven without or with a broken POM or an
    // unknown phase, a Gradle task that does not exist, a CMake source directory without
    // CMakeLists.txt, pip without requirements file or project, Poetry without pyproject.toml,
    // pre-commit's config, Compose's schema (https://docs.docker.com/reference/compose-file/),
    // argparse, clap, Cobra, commander and yargs usage errors (e.g.
    // https://docs.python.org/3/library/argparse.html#exiting-methods), Dockerfile syntax and a
    // missing Dockerfile (https://docs.docker.com/reference/dockerfile/), ESLint without its
    // configuration, a plugin or a shared config it names
    // (https://eslint.org/docs/latest/use/troubleshooting/), linters given patterns that match
    // nothing, tsc without inputs, and pip refusing a distribution's Python (PEP 668,
    // https://packaging.python.org/en/latest/specifications/externally-managed-environments/).
    'build-tool-config': {
      re: /\b[Mm]issing script: |\bCouldn't find a script named "|^error Command "[^"]+" not found\.?$|^\s*\[?ERR_PNPM_(?:NO_SCRIPT|NO_IMPORTER_MANIFEST_FOUND|BAD_PM_VERSION)\b|\bCould not read package\.json\b|\bnpm (?:ERR!|error) code EJSONPARSE\b|can only install with an existing package-lock\.json|\bThis project is configured to use \w+ because\b|\b(?:Malformed|Non-parseable) POM\b|there is no POM in this directory|\bUnknown lifecycle phase "|\bTask '[^']+' not found in (?:root )?project\b|does not appear to contain CMakeLists\.txt|\bCould not open requirements file\b|\bis not installable\. Neither 'setup\.py' nor 'pyproject\.toml' found|\bPoetry could not find a pyproject\.toml file\b|\bInvalidConfigError\b|\bAdditional property \S+ is not allowed\b|\bno configuration file provided: not found\b|\berror: the following (?:arguments are required|required arguments were not provided): ?|\berror: argument [^:]+: (?:invalid \w+ value|expected (?:one|at least one) argument|invalid choice)|\berror: invalid value '[^']*' for '|\brequired flag\(s\) "[^"]+" not set\b|\bunknown command "[^"]+" for "|\berror: required option '[^']+' not specified\b|\berror: missing required argument '|^(?:ERROR: |Error: )?Missing required arguments?: \S|\b[Dd]ockerfile parse error (?:on )?line \d+|\bfailed to read dockerfile\b|unable to evaluate symlinks in Dockerfile path|\bNo ESLint configuration found\b|\bESLint couldn't find (?:an eslint\.config|a configuration file|the config "[^"]+" to extend from|the plugin ")|\bFailed to load (?:plugin '[^']+' declared in|config "[^"]+" to extend from|parser '[^']+' declared in)\b|\bNo files matching the pattern (?:"[^"]*" )?were found\b|\bNo inputs were found in config file\b|\berror: externally-managed-environment\b/,
      score: 89,
      kind: 'error',
      category: 'config_yaml',
    },
    // A tool invoked with options it does not accept, or a JDK older than the release the build
    // targets (javac's `invalid target release: 17`), or Meson given a value its option does not
    // take (`ERROR: Value "true" for combo option is not one of the choices.`,
    // https://github.com/mesonbuild/meson/blob/master/mesonbuild/options.py): the job's own
    // configuration is wrong.
    'tool-usage': {
      re: /\berror: (?:unrecognized (?:command[- ]line )?(?:option|argument)s?|unknown (?:command[- ]line )?(?:option|flag)|unexpected argument)\b|Unable to find a destination matching|\binvalid destination specifier\b|\bCould not find \.travis\.yml\b|\bNo Rakefile found\b|\bCould not locate Gemfile\b|\bInput required and not supplied: |\binvalid (?:target|source) release: |\brelease version \d+ not supported\b|\bfor combo option is not one of the choices\b/i,
      score: 88,
      kind: 'error',
      category: 'config_yaml',
    },
    // A tool rejecting its own configuration file (golangci-lint's `Error: you are using a
    // configuration file for golangci-lint v2 with golangci-lint v1`, `Error: invalid configuration
    // file …`).
    'config-file-rejected': {
      re: /^(?:Error|ERROR|error|Fatal|FATAL)\b:?.{0,200}\bconfig(?:uration)? file\b/,
      score: 89,
      kind: 'error',
      category: 'config_yaml',
    },
    // Settings the application refuses at start: .NET's connection-string parser (`Format of the
    // initialization string does not conform to specification starting at index 0.`,
    // https://learn.microsoft.com/dotnet/api/system.data.common.dbconnectionstringbuilder) and a
    // program's own `Config file is not valid`.
    'app-settings': {
      re: /\bFormat of the initialization string does not conform to specification\b|\b[Cc]onfig(?:uration)? file is (?:not valid|invalid)\b/,
      score: 89,
      kind: 'error',
      category: 'config_yaml',
    },
    // A tool's own configuration file missing (`FATAL ERROR: can't init: no west.yml found in
    // /w/config`, Zephyr's west, https://docs.zephyrproject.org/latest/develop/west/manifest.html;
    // `no tsconfig.json found`): the project's configuration, not the script.
    'config-file-missing': {
      re: /\b[Nn]o [\w.-]+\.(?:ya?ml|toml|json|ini|cfg|conf) (?:file )?(?:was )?found\b/,
      score: 89,
      kind: 'error',
      category: 'config_yaml',
    },
    // Flutter asked to build for a platform the project has no scaffolding for (`This project is
    // not configured for the web.`, `No Linux desktop project configured.`,
    // https://github.com/flutter/flutter/tree/master/packages/flutter_tools/lib/src/commands): the
    // project's configuration, fixed by `flutter create . --platforms …`.
    'flutter-platform': {
      re: /^This project is not configured for the \w+\.|^No (?:Linux|macOS|Windows) desktop project configured\b/,
      score: 89,
      kind: 'error',
      category: 'config_yaml',
    },
    // Config / YAML.
    yaml: {
      re: /(?<![.\w])(?:yaml|yml)\b.*\b(?:error|invalid|cannot|could not|unexpected|failed)|mapping values are not allowed|did not find expected (?:key|node|-)|found character that cannot start any token|could not find expected ':'|jobs?:?\S* config (?:should|contains)|(?:unknown|invalid) (?:keys?|configuration)\b|is not defined in the configuration|Invalid configuration|\bconfig(?:uration)? error\b|yaml\.(?:parser\.ParserError|scanner\.ScannerError)|(?:ParserError|ScannerError): while (?:parsing|scanning)/i,
      score: 90,
      kind: 'error',
      category: 'config_yaml',
    },
    // Patches and sources of a package recipe that do not apply or are missing.
    'patch-does-not-apply': {
      re: /\bhunks? FAILED\b|\bHunk #\d+ FAILED\b|^error: Bad file: |\bdoes not apply\b|^Patch #?\d+ .*(?:failed|FAILED)/,
      score: 90,
      kind: 'error',
      category: 'config_yaml',
    },
  },
});
