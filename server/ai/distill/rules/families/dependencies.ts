/**
 * Packages, libraries and the network they come over: installs, lock files, resolution, downloads
 * and connections.
 */
import { defineFamily } from '../rule.ts';

/** Packages, libraries and the network they come over. */
export const dependenciesFamily = defineFamily({
  name: 'dependencies',
  // prettier-ignore
  hints: [
    'err', 'warn', 'fail', 'exception', 'exit', 'oom', 'timeout', 'timedout', 'denied', 'forbidden',
    'econn', 'etimedout', 'enotfound', 'eai_again', 'refused', 'unreachable', 'not found',
    'no such', 'cannot', "can't", 'could not', "couldn't", 'undefined', 'unable', 'expected',
    'received', 'unknown', 'missing', 'no matching', 'unsatisfiable', 'conflict', 'unexpected',
    'exceeded', 'manifest unknown', 'nothing provides', 'no match for argument', 'cancel', 'unmet',
    'resolv', 'shared', 'unable to access', 'requested url', 'expired', 'empty reply',
    'toomanyrequests', 'rate limit', 'too many requests', 'gemfile', 'lockfile', 'go.mod needed',
    'installable set', 'solverproblem', 'custom build command', 'wheels', 'subprocess-exited',
    'metadata-generation', 'not available', 'spec satisfying', 'installation candidate',
    'incompatible', 'release file', 'lock file', 'curl: (', 'timed out', 'root composer.json',
    'no required module', 'msb3644', 'not met', ' problems, ', 'not part of the bundle',
  ],
  rules: {
    // Package installs in build roots (dnf/mock, zypper/OBS, apt).
    'build-root-packages': {
      re: /\bnothing provides\b|\bNo match for argument\b|\bProblem(?: \d+)?: (?:nothing provides|package .* requires|conflicting requests|cannot install)|\bconflicting requests\b|have unresolvable requirements|\bhas unmet dependencies\b|Unable to locate package|Error: Unable to find a match|\bunresolvable: /,
      score: 92,
      kind: 'error',
      category: 'dependency_network',
    },
    // A Python import that fails inside an installed package (`ImportError: cannot import name
    // 'url_quote' from 'werkzeug.urls' (…/site-packages/werkzeug/urls.py)`,
    // https://docs.python.org/3/library/exceptions.html#ImportError): the versions installed do not
    // fit together; an unpinned dependency moved on.
    'python-import-mismatch': {
      re: /\bImportError: cannot import name '[^']+' from '[^']+' \([^)]*\b(?:site|dist)-packages\//,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // A .NET Framework targeting pack the build machine lacks (`error MSB3644: The reference
    // assemblies for .NETFramework,Version=v4.6.1 were not found`,
    // https://learn.microsoft.com/visualstudio/msbuild/errors/msb3644): install it or retarget.
    'targeting-pack': {
      re: /\bMSB3644: The reference assemblies for .* were not found\b/i,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // Zero-shot (deps): JavaScript package managers that cannot get a dependency. npm 7-10 E404
    // (`npm ERR! 404 Not Found - GET …`, `npm error 404  'x@*' is not in this registry`,
    // https://docs.npmjs.com/cli/v10/using-npm/registry), EINTEGRITY, socket timeouts and Node's
    // TLS codes, npm/Yarn 1/pnpm engine checks
    // (https://docs.npmjs.com/cli/v10/configuring-npm/package-json#engines; `npm WARN EBADENGINE`
    // is only a warning, and so is Yarn 1's `info` about an optional dependency's engine), Yarn 1's
    // registry misses, Yarn Berry's YN0001/YN0035/YN0018/YN0028
    // (https://yarnpkg.com/advanced/error-codes) and pnpm's ERR_PNPM_* codes
    // (https://pnpm.io/errors; at the line start, as pnpm's `WARN … error (ERR_PNPM_FETCH_404).
    // Will retry …` is a retry, not the failure; pnpm 10 and later bracket the code, and refuse to
    // finish an install whose dependencies' build scripts were not approved,
    // `[ERR_PNPM_IGNORED_BUILDS] Ignored build scripts: esbuild@0.21.5`,
    // https://pnpm.io/settings#strictdepbuilds).
    javascript: {
      re: /\bnpm (?:ERR!|error) 404 Not Found - GET |\bnpm (?:ERR!|error) 404 +'[^']+' is not in (?:this|the npm) registry|\bnpm (?:ERR!|error) (?:code (?:EBADENGINE|EINTEGRITY)\b|notsup )|\bintegrity checksum failed when using sha\d+|\b(?:ESOCKETTIMEDOUT|ERR_SOCKET_TIMEOUT|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN|CERT_HAS_EXPIRED)\b|^error \S+: The engine "[^"]+" is incompatible with this module\b|\bCouldn't find package "[^"]+"(?: required by "[^"]+")? on the "[^"]+" registry|\bCouldn't find any versions for "|\bRequest failed \\?"(?:404|5\d\d) |\bYN0\d{3}: .*(?:No candidates found|Package not found|The remote server failed to provide the requested resource|Response Code: (?:404|5\d\d)\b|doesn't match the expected checksum|The lockfile would have been modified by this install)|^\s*\[?ERR_PNPM_(?:FETCH_(?:404|5\d\d)|NO_MATCHING_VERSION\w*|NO_VERSIONS|PEER_DEP_ISSUES|UNSUPPORTED_ENGINE|TARBALL_INTEGRITY|META_FETCH_FAIL|LOCKFILE_MISSING_DEPENDENCY|LOCKFILE_BREAKING_CHANGE|IGNORED_BUILDS)\b/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // Zero-shot (deps): other language package managers. PubGrub's explanation in Dart pub and
    // Poetry (`So, because … version solving failed.`, https://dart.dev/tools/pub/cmd/pub-get) and
    // uv (`× No solution found when resolving dependencies`,
    // https://docs.astral.sh/uv/reference/troubleshooting/), pip's wheel builds, hashes, Python
    // version and index errors (https://pip.pypa.io/en/stable/topics/dependency-resolution/),
    // Poetry's stale lock file, conda's HTTP errors, Bundler's resolver and sources
    // (https://bundler.io/guides/troubleshooting.html), Composer's root requirements and stale lock
    // file (https://getcomposer.org/doc/articles/troubleshooting.md), Maven's unresolvable POMs and
    // plugins, Gradle's 5xx from a repository, sbt's ResolveException, Go's module proxy 404/410,
    // `git ls-remote` failures and missing module for a package
    // (https://go.dev/ref/mod#resolve-pkg-mod), Cargo's dependency loading, stale Cargo.lock and
    // rust-version (https://doc.rust-lang.org/cargo/reference/rust-version.html), NuGet
    // NU1xxx-NU13xx (https://learn.microsoft.com/nuget/reference/errors-and-warnings), SwiftPM, R's
    // unavailable dependencies, Mix's unchecked dependencies, cpanm and Perl's `Can't locate … in
    // @INC`, Conan's remotes, Bazel's external repositories
    // (https://bazel.build/external/overview), and Terraform's providers and dependency lock file
    // (https://developer.hashicorp.com/terraform/language/files/dependency-lock), and Bundler
    // refusing a gem the Gemfile lacks (`pg is not part of the bundle. Add it to Gemfile.`, as
    // Rails prints it for a database adapter,
    // https://github.com/rubygems/rubygems/blob/master/bundler/lib/bundler/rubygems_integration.rb).
    'other-languages': {
      re: /^\s*(?:So, )?[Bb]ecause .*(?:version solving failed|\bis forbidden\b|which doesn't match any versions)|\bNo solution found when resolving dependencies\b|\bFailed building wheel for\b|\bTHESE PACKAGES DO NOT MATCH THE HASHES\b|\brequires a different Python: |\bHTTP error (?:404|5\d\d) while getting\b|changed significantly since poetry\.lock was last generated|\bCondaHTTPError\b|\bBundler could not find compatible versions for gem\b|but that version could not be found in any of the sources\b|\bCould not find [\w.-]+-\d[\w.-]* in (?:locally installed gems|any of the sources)\b|\bCould not find 'bundler' \(|\bCould not reach host \S+\. Check your network connection\b|\bRoot composer\.json requires\b.*(?:could not be found|does not (?:match|satisfy))|Your lock file does not contain a compatible set of packages|\bNon-resolvable (?:parent|import) POM\b|\bor one of its dependencies could not be resolved\b|\bCould not (?:GET|HEAD) '[^']+'\. Received status code (?:404|5\d\d)\b|\bResolveException: |^go(?: \w+)?: .*: reading https?:\/\/\S+: (?:404 Not Found|410 Gone)\b|^go(?: \w+)?: .*\bgit ls-remote -q origin in \S+: exit status 128\b|\bno required module provides package\b|\bcannot find module providing package\b|\bfailed to get `[^`]+` as a dependency of\b|\bfailed to load source for dependency `|needs to be updated but --(?:locked|frozen) was passed\b|\bcannot be built because it requires rustc \S+ or newer\b|\berror NU1[0-3]\d\d\b|\bDependencies could not be resolved because\b|\bdependenc(?:y|ies) .* (?:is|are) not available for package\b|\bthe dependency is not available, run "mix deps\.get"|\bInstalling the dependencies failed: |\bCouldn't find module or a distribution\b|\bCan't locate \S+\.pm in @INC\b|\bUnable to find '[^']+' in remotes\b|\bAn error occurred during the fetch of repository '|\bFailed to query available provider packages\b|\bCould not retrieve the list of available versions for provider\b|\bFailed to install provider\b|\bInconsistent dependency lock file\b|\bis not part of the bundle\. Add it to (?:your )?Gemfile\b/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // Zero-shot (deps): system packages and the network. apt's missing candidates, release files
    // and held packages (apt-get(8)), apk's `unable to select packages`
    // (https://wiki.alpinelinux.org/wiki/Alpine_Package_Keeper), pkg-config and Meson not finding a
    // library (https://mesonbuild.com/Dependencies.html), curl's network exit codes
    // (https://curl.se/libcurl/c/libcurl-errors.html: 5, 6, 7, 16, 18, 28, 35, 52, 55, 56, 60, 92;
    // exit 22 with a 404 is left alone: a download gone, or a health check of the job's own
    // service, only the command tells), wget's and urllib's 502/503/504 (a 500 may be the job's own
    // service), a proxy refusing CONNECT, Go's and .NET's TLS and DNS errors, GitHub's API rate
    // limit, and BuildKit/Docker failing to resolve a base image or reach the registry
    // (https://docs.docker.com/build/building/base-images/; a 401/403 there is an auth failure).
    'system-packages-and-network': {
      re: /\bhas no installation candidate\b|\bdoes not have a Release file\b|^E: Version '[^']+' for '[^']+' was not found|\bUnable to correct problems, you have held broken packages\b|^ERROR: unable to select packages:|\(no such package\)|\bwas not found in the pkg-config search path\b|^No package '[^']+' found\b|\bDependency "[^"]+" not found\b|(?:^|\s)curl: \((?:5|6|7|16|18|28|35|52|55|56|60|92)\) |^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ERROR 50[234]: |\bReceived HTTP code \d{3} from proxy after CONNECT\b|\bHTTP Error (?:404|50[234]): |\bx509: certificate signed by unknown authority\b|\btls: failed to verify certificate\b|\bgnutls_handshake\(\) failed\b|\bThe remote name could not be resolved\b|\bNo such host is known\b|\bthe connected party did not properly respond after a period of time\b|\bAPI rate limit exceeded\b|\bfailed to resolve source metadata for \S+: (?!.*\b(?:40[13]|[Uu]nauthorized|denied|[Ff]orbidden)\b)|\bno matching manifest for \S+ in the manifest list\b|\brequest canceled while waiting for connection\b|\bClient\.Timeout exceeded while awaiting headers\b/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // A program that cannot load a library or package it was built against, and remote fetches
    // that failed (git/curl): dependency problems, whatever the wording.
    'library-or-fetch': {
      re: /ImportError: .*undefined symbol|cannot open shared object file|error while loading shared libraries|Error: Cannot find module '[^./]|\bunable to access '[^']+': |The requested URL returned error: 5\d\d|\b(?:[Cc]ouldn't|[Cc]ould not|[Uu]nable to|[Ff]ailed to) (?:download|fetch)\b|\bcould not fetch content\b/,
      score: 91,
      kind: 'error',
      category: 'dependency_network',
    },
    // Package managers that could not install what the lock file or manifest asks for: a lock file
    // out of date (npm ci, yarn --frozen-lockfile, pnpm), go.mod needing updates, Composer's and
    // Poetry's solvers, a Rust crate's or Python package's native build (usually a missing system
    // library).
    'lockfile-or-solver': {
      re: /\bERR_PNPM_OUTDATED_LOCKFILE\b|\blockfile needs to be updated\b|`npm ci` can only install packages when your package\.json and package-lock\.json|\bupdates to go\.mod needed\b|Your requirements could not be resolved to an installable set of packages|\bSolverProblemError\b|failed to run custom build command for `|Failed to build installable wheels|Could not build wheels for|\bsubprocess-exited-with-error\b|\bmetadata-generation-failed\b/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // A download that never got an answer: curl's `%{http_code}` is `000` when no HTTP response
    // came back (https://everything.curl.dev/usingcurl/verbose/writeout.html), as deploy health
    // checks print it (`Health check attempt 5/5 failed (HTTP 000)`), and CMake's downloads
    // (FetchContent, ExternalProject) report `error: downloading 'https://…' failed` with curl's
    // status, also as MSBuild relays them (`CUSTOMBUILD : error : downloading '…' failed`,
    // https://cmake.org/cmake/help/latest/module/ExternalProject.html).
    'no-http-answer': {
      re: /\b(?:HTTP|[Ss]tatus|[Cc]ode)\)?[ :=]{0,3}(?:\w+ )?0{3,}\b(?!\.)|\berror ?: downloading '[^']+' failed\b|\bThe requested URL returned error ?: 5\d\d\b/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // CMake's find_package finding no package (`Could not find a package configuration file
    // provided by "Catch2" with any of the following names:`,
    // https://cmake.org/cmake/help/latest/command/find_package.html): a dependency the job did not
    // install, not the code.
    'cmake-find-package': {
      re: /\bCould not find a package configuration file provided by "[^"]+"|\bBy not providing "Find[\w.-]+\.cmake" in CMAKE_MODULE_PATH\b/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // Transfers cut off (git over HTTP, curl), registries rate-limiting anonymous pulls, and
    // package managers' own "cannot find that package" codes: NuGet NU1101/NU1102/NU1103, Bundler,
    // webpack resolving a bare package name, Gradle dependency coordinates, Maven transfers,
    // CocoaPods specs and its trunk CDN (cocoapods-core's cdn_source.rb: "CDN: trunk URL couldn't be
    // downloaded: … Response: …"), R packages, Ant's <get>.
    'transfer-cut-off': {
      re: /\bRPC failed; (?:curl|HTTP)\b|\bearly EOF\b|\bremote end hung up unexpectedly|\bEmpty reply from server\b|\btoomanyrequests\b|\bpull rate limit\b|\b429 Too Many Requests\b|\berror NU1[01]\d\d\b|\bBundler::GemNotFound\b|\bCould not find gem\b|Can't resolve '[^./']|(?:^|> )\s*Could not (?:find|resolve) (?:[\w.-]+:[\w.-]+(?::[\w.-]+)?|project :[\w:.-]+)\.?\s*$|\bcannot load such file\b|\bcomputed checksums? did NOT match\b|\bCould not transfer artifact\b|None of your spec sources contain a spec satisfying|could not find compatible versions for pod|\bCDN: \S+ (?:URL couldn't be downloaded|Repo update failed)\b|\bPackages? required but not available\b|\bthere is no package called\b|\bError (?:getting|downloading) https?:|\bUnsupportedClassVersionError\b|compiled by a more recent version of the Java Runtime/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // Network and dependency resolution.
    network: {
      re: /\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ENETUNREACH|Could(?: not|n't) resolve host|Connection refused|Connection reset|Temporary failure in name resolution|Temporary failure resolving|Name or service not known|network is unreachable|TLS handshake timeout|i\/o timeout|502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out|socket hang up|(?:Failed|Unable) to connect to|Could(?: not|n't) (?:connect|create (?:a )?connection) to|Unable to establish (?:a )?connection|connection timed out|no such host|SSL certificate problem|certificate verify failed|no certificate subject alternative name matches|unable to get local issuer certificate|certificate has expired|Read timed out|Max retries exceeded|Connect(?:ion)? timeout|SSL connect error|handshake failure)/i,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    'module-resolution': {
      re: /\b(?:ModuleNotFoundError|No module named|ERESOLVE|ETARGET|E404\b|No matching version found|Could not resolve dependencies|Could not resolve all (?:files|dependencies|artifacts)|could not find a version that satisfies|No matching distribution found|Failed to collect dependencies|unable to resolve dependency|version solving failed|unsatisfiable|conflicting (?:peer )?dependenc|failed to select a version|no matching package named|failed to download|failed to fetch|manifest unknown|not found: manifest|unknown revision|missing go\.sum entry|checksum mismatch|verifying .*: checksum mismatch|Could not find artifact|was not found in (?:https?:|any of the|the (?:registry|repositor|index|package))|ResolutionImpossible|PackagesNotFoundError|not available from current channels|Cannot find a version|dependency resolution failed|unresolved dependency: )/i,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // Zero-shot (build): dependencies that are not installed. Bundlers that cannot find a bare
    // package name (not a file of the project; `@/x` and `~/x` are the project's own path aliases):
    // Vite/Rollup `[vite]: Rollup failed to resolve import "x" from "src/main.ts".`
    // (https://vite.dev/guide/build), esbuild `✘ [ERROR] Could not resolve "x"` and `src/a.ts:1:2:
    // ERROR: Could not resolve "x"` (https://esbuild.github.io/api/#external). A library the linker
    // cannot find (`/usr/bin/ld: cannot find -lz`, Apple ld's `ld: library not found for -lz`),
    // like configure's missing-library checks
    // (https://sourceware.org/binutils/docs/ld/Options.html). NuGet restore errors, all
    // dependency-graph problems: NU1605 `Warning As Error: Detected package downgrade`
    // (https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1605), NU1608
    // outside a constraint, NU1301 a feed that cannot be reached, NU190x vulnerable packages.
    'not-installed': {
      re: /^(?:\[vite(?::[\w-]+)?\]:? )?Rollup failed to resolve import "(?![./~]|@\/)|^(?:✘ \[ERROR\]|\S+:\d+:\d+: ERROR:) Could not resolve "(?![./~]|@\/)|^\S*ld(?:\.\w+)?: cannot find -l\S|^ld: library (?:not found for -l\S|'[^']+' not found)|\berror NU1\d{3}\b/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    // Configure-time checks (autoconf, CMake): a missing library or tool is a dependency problem
    // (pkg-config's PKG_CHECK_MODULES: `Package requirements (libxml-2.0 >= 2.9.0) were not met`,
    // https://people.freedesktop.org/~dbn/pkg-config-guide.html).
    'configure-missing-library': {
      re: /^configure: error: .*(?:not found|[Ff]ailed to find|[Cc]ould not find|[Cc]annot find|missing|required|No package|librar(?:y|ies)|Package requirements \(.*\) were not met)|Could NOT find \w+|^CMake Error at \S*Find\w+\.cmake|^CMake Error: .*(?:not found|NOTFOUND)/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
  },
  advice: {
    // Maven remembers a failed download in ~/.m2 and will not retry it until the repository's
    // update interval has passed, unless updates are forced with -U
    // (https://maven.apache.org/ref/current/maven-embedder/cli.html): a retry of a job with a
    // cached .m2 fails the same way, whatever fixed the repository.
    'maven-cached-failure': {
      category: 'dependency_network',
      // Maven Resolver's wordings over the years: "…, resolution will not be reattempted" and
      // (1.9+) "This failure was cached in the local repository and resolution is not reattempted".
      when: /was cached in the local repository,? (?:and )?resolution (?:will not be|is not) reattempted/,
      steps: [
        'Maven cached this failed download in the local repository and will not try again until the update interval has passed: a retry with the same `.m2` cache fails the same way.',
        'Once the artifact is reachable (or its coordinates fixed), force Maven to look again with `mvn -U` (`--update-snapshots`), or clear that artifact’s folder under `.m2/repository` and the job’s `cache:`.',
      ],
      instead: true,
      reproduce: true,
    },
    'installed-package-changed': {
      category: 'dependency_network',
      when: /ImportError: cannot import name .*(?:site|dist)-packages\//,
      steps: [
        'An installed package no longer has what the code imports: a dependency that is not pinned was upgraded to a release that removed or moved it.',
        'Pin that package (or the one that imports it) to the last version that works, in requirements or a constraints/lock file, so the build stops drifting; or update the code to the new API.',
      ],
      instead: true,
      reproduce: true,
    },
  },
});
