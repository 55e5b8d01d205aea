import { describe, expect, it } from 'vitest';
import { classifyLine } from '../classify-line.ts';
import { stripCiPrefix } from '../../ci-prefix.ts';
import { expectDiagnosis, itGivesFamilyAdvice } from '../../../testing/documented-lines.ts';
import { itClassifiesFamilyLines, type Lookalike, type RuleCase } from '../rule-tester.ts';
import { dependenciesFamily } from './dependencies.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  {
    what: 'a health check that got no HTTP response',
    from: 'https://everything.curl.dev/usingcurl/verbose/writeout.html',
    line: '⚠️ Health check attempt 5/5 failed (HTTP 000)',
    rule: 'dependencies/no-http-answer',
    category: 'dependency_network',
    lookalike: '✅ Health check passed (HTTP 200)',
  },
  {
    what: "CMake's download that failed",
    from: 'https://cmake.org/cmake/help/latest/module/ExternalProject.html',
    line: "CUSTOMBUILD : error : downloading 'https://github.com/curl/curl/releases/download/curl-8_13_0/curl-8.13.0.tar.xz' failed",
    rule: 'dependencies/no-http-answer',
    category: 'dependency_network',
    lookalike:
      '-- Downloading https://github.com/curl/curl/releases/download/curl-8_13_0/curl-8.13.0.tar.xz - done',
  },
  {
    what: "CMake's find_package without the package",
    from: 'https://cmake.org/cmake/help/latest/command/find_package.html',
    line: '  Could not find a package configuration file provided by "Catch2" with any',
    rule: 'dependencies/cmake-find-package',
    category: 'dependency_network',
    lookalike: '-- Found Catch2: /usr/lib/cmake/Catch2 (found version "3.5.0")',
  },
  {
    what: 'a library the linker cannot find (a system package not installed)',
    from: 'https://sourceware.org/binutils/docs/ld/Options.html',
    line: '/usr/bin/ld: cannot find -lz: No such file or directory',
    rule: 'dependencies/not-installed',
    category: 'dependency_network',
  },
  {
    what: 'NuGet NU1605 package downgrade as an error',
    from: 'https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1605',
    line: '/src/App/App.csproj : error NU1605: Warning As Error: Detected package downgrade: Serilog.Extensions.Hosting from 9.0.0 to 8.0.0. Reference the package directly from the project to select a different version.',
    rule: 'dependencies/not-installed',
    category: 'dependency_network',
  },
  {
    what: 'Vite: a bare package import not installed',
    from: 'https://vite.dev/guide/dep-pre-bundling',
    line: '[vite]: Rollup failed to resolve import "react-quill" from "/app/src/components/RichTextEditor.jsx".',
    rule: 'dependencies/not-installed',
    category: 'dependency_network',
  },
  {
    what: 'esbuild: a package not installed',
    from: 'https://esbuild.github.io/api/#external',
    line: '✘ [ERROR] Could not resolve "nodemailer"',
    rule: 'dependencies/not-installed',
    category: 'dependency_network',
  },
  // ---- dependency / network ----
  {
    what: 'npm 7-10 E404 from the registry',
    from: 'https://github.com/Unitech/pm2/issues/4803',
    line: 'npm ERR! 404 Not Found - GET https://registry.npmjs.org/@pm2%2fagent - Not found',
    rule: 'dependencies/javascript',
    category: 'dependency_network',
    lookalike:
      'npm http fetch GET 200 https://registry.npmjs.org/@pm2%2fagent 57ms (cache revalidated)',
  },
  {
    what: 'npm 10 `npm error` E404 naming the package',
    from: 'https://docs.npmjs.com/cli/v10/using-npm/registry',
    line: "npm error 404  '@acme/nope@1.0.0' is not in this registry.",
    rule: 'dependencies/javascript',
    category: 'dependency_network',
    lookalike:
      'npm notice Beginning October 4, 2021, all connections to the npm registry must use TLS 1.2',
  },
  {
    what: 'npm engine-strict refusal (a `npm WARN EBADENGINE` is only a warning)',
    from: 'https://gist.github.com/Cyberiaaxis/6a11bd606e530a95d85d38945746e2c4',
    line: 'npm ERR! notsup Not compatible with your version of node/npm: npm@8.3.0',
    rule: 'dependencies/javascript',
    category: 'dependency_network',
    lookalike: 'npm WARN EBADENGINE Unsupported engine {',
  },
  {
    what: 'Yarn 1 engine check',
    from: 'https://classic.yarnpkg.com/en/docs/package-json#toc-engines',
    line: 'error foo@1.0.0: The engine "node" is incompatible with this module. Expected version ">=18". Got "16.20.0"',
    rule: 'dependencies/javascript',
    category: 'dependency_network',
    // Yarn 1 skips an optional dependency whose engine does not match, at `info` level.
    lookalike:
      'info fsevents@2.3.3: The engine "node" is incompatible with this module. Expected version ">=20". Got "18.19.1"',
  },
  {
    what: 'Yarn 1 giving up on a registry socket timeout',
    from: 'https://classic.yarnpkg.com/en/docs/cli/install#toc-yarn-install-network-timeout',
    line: 'error An unexpected error occurred: "https://registry.yarnpkg.com/react/-/react-18.2.0.tgz: ESOCKETTIMEDOUT".',
    rule: 'dependencies/javascript',
    category: 'dependency_network',
    lookalike: 'info There appears to be trouble with your network connection. Retrying...',
  },
  {
    what: 'Yarn Berry YN0001 no candidates',
    from: 'https://github.com/yarnpkg/berry/issues/4162',
    line: '➤ YN0001: │ Error: AppolloReact@npm:^3.3.2: No candidates found',
    rule: 'dependencies/javascript',
    category: 'dependency_network',
    lookalike: '➤ YN0000: │ Resolution step',
  },
  {
    what: 'Yarn Berry YN0035 registry 404',
    from: 'https://github.com/voiceflow/alexa-runtime/issues/332',
    line: '➤ YN0035: │   Response Code: 404 (Not Found)',
    rule: 'dependencies/javascript',
    category: 'dependency_network',
    lookalike: '➤ YN0000: │ Fetch step',
  },
  {
    what: 'pnpm ERR_PNPM_FETCH_404 (its retry notice is a warning)',
    from: 'https://github.com/pnpm/pnpm/pull/7276',
    line: ' ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/@tiptap-pro/extension-mathematics/-/extension-mathematics-2.3.3.tgz: Not Found - 404',
    rule: 'dependencies/javascript',
    category: 'dependency_network',
    lookalike:
      ' WARN  GET https://registry.npmjs.org/@tiptap-pro/extension-mathematics/-/extension-mathematics-2.3.3.tgz error (ERR_PNPM_FETCH_404). Will retry in 10 seconds. 2 retries left.',
  },
  {
    what: 'pnpm unsupported engine',
    from: 'https://github.com/chartjs/Chart.js/issues/11208',
    line: ' ERR_PNPM_UNSUPPORTED_ENGINE  Unsupported environment (bad pnpm and/or Node.js version)',
    rule: 'dependencies/javascript',
    category: 'dependency_network',
    lookalike: 'Progress: resolved 51, reused 51, downloaded 0, added 0',
  },
  {
    what: 'PubGrub (Dart pub, Poetry) explaining why solving failed',
    from: 'https://dart.dev/tools/pub/cmd/pub-get',
    line: 'So, because my_app depends on flutter_test any from sdk, version solving failed.',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: 'Because the cache was restored, pub get is skipped.',
  },
  {
    what: 'Bundler resolver conflict',
    from: 'https://bundler.io/guides/troubleshooting.html',
    line: 'Bundler could not find compatible versions for gem "bundler":',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: 'Bundle complete! 12 Gemfile dependencies, 60 gems now installed.',
  },
  {
    what: 'Go module proxy 404',
    from: 'https://go.dev/ref/mod#goproxy-protocol',
    line: 'go: github.com/x/y@v1.2.3: reading https://proxy.golang.org/github.com/x/y/@v/v1.2.3.mod: 404 Not Found',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: 'go: downloading github.com/x/y v1.2.3',
  },
  {
    what: 'Go direct fetch failing in git ls-remote',
    from: 'https://go.dev/ref/mod#vcs-find',
    line: 'go: github.com/x/private@v0.1.0: invalid version: git ls-remote -q origin in /home/runner/go/pkg/mod/cache/vcs/0c31a1: exit status 128:',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: 'go: finding module for package github.com/x/private',
  },
  {
    what: 'Maven unresolvable parent POM',
    from: 'https://maven.apache.org/guides/introduction/introduction-to-the-pom.html',
    line: "[ERROR] Non-resolvable parent POM for x:app:1.0: Could not find artifact x:parent:pom:2.0 in central (https://repo.maven.apache.org/maven2) and 'parent.relativePath' points at wrong local POM @ line 5, column 11",
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike:
      '[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/x/parent/2.0/parent-2.0.pom (3 kB at 90 kB/s)',
  },
  {
    what: 'apt package without an installation candidate',
    from: 'https://manpages.debian.org/apt-get.8',
    line: "E: Package 'docker.io' has no installation candidate",
    rule: 'dependencies/system-packages-and-network',
    category: 'dependency_network',
    lookalike:
      'W: Failed to fetch http://archive.ubuntu.com/ubuntu/dists/jammy/InRelease  Temporary failure resolving',
  },
  {
    what: 'apk unable to select packages',
    from: 'https://wiki.alpinelinux.org/wiki/Alpine_Package_Keeper',
    line: 'ERROR: unable to select packages:',
    rule: 'dependencies/system-packages-and-network',
    category: 'dependency_network',
    lookalike: 'fetch https://dl-cdn.alpinelinux.org/alpine/v3.19/main/x86_64/APKINDEX.tar.gz',
  },
  {
    what: 'pkg-config not finding a library',
    from: 'https://people.freedesktop.org/~dbn/pkg-config-guide.html',
    line: 'Package pangocairo was not found in the pkg-config search path.',
    rule: 'dependencies/system-packages-and-network',
    category: 'dependency_network',
    lookalike: 'checking for pkg-config... /usr/bin/pkg-config',
  },
  {
    what: 'pip failing to build a wheel',
    from: 'https://pip.pypa.io/en/stable/cli/pip_wheel/',
    line: 'ERROR: Failed building wheel for psycopg2',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: "  Building wheel for psycopg2 (setup.py): finished with status 'done'",
  },
  {
    what: 'curl exit 28, an operation timed out (network, not a job timeout)',
    from: 'https://curl.se/libcurl/c/libcurl-errors.html',
    line: 'curl: (28) Failed to connect to github.com port 443 after 130000 ms: Connection timed out',
    rule: 'dependencies/system-packages-and-network',
    category: 'dependency_network',
    lookalike: 'curl: (23) Failure writing output to destination',
  },
  {
    what: 'wget told 503 by a mirror',
    from: 'https://www.gnu.org/software/wget/manual/wget.html#Exit-Status',
    line: '2024-05-01 10:00:00 ERROR 503: Service Unavailable.',
    rule: 'dependencies/system-packages-and-network',
    category: 'dependency_network',
    lookalike: 'HTTP request sent, awaiting response... 200 OK',
  },
  {
    what: 'curl 56, a proxy refusing CONNECT',
    from: 'https://curl.se/libcurl/c/libcurl-errors.html',
    line: 'curl: (56) Received HTTP code 503 from proxy after CONNECT',
    rule: 'dependencies/system-packages-and-network',
    category: 'dependency_network',
    lookalike: '* Establish HTTP proxy tunnel to github.com:443',
  },
  {
    what: 'BuildKit failing to resolve a base image',
    from: 'https://docs.docker.com/build/building/base-images/',
    line: 'ERROR: failed to solve: node:99: failed to resolve source metadata for docker.io/library/node:99: docker.io/library/node:99: not found',
    rule: 'dependencies/system-packages-and-network',
    category: 'dependency_network',
    lookalike: '#2 [internal] load metadata for docker.io/library/node:20',
  },
  {
    what: 'uv finding no solution',
    from: 'https://docs.astral.sh/uv/concepts/resolution/',
    line: '  × No solution found when resolving dependencies:',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: 'Resolved 42 packages in 120ms',
  },
  {
    what: 'pip hash-checking mode refusing a download',
    from: 'https://pip.pypa.io/en/stable/topics/secure-installs/',
    line: 'ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the package versions, please update the hashes. Otherwise, examine the package contents carefully; someone may have tampered with them.',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: 'Collecting requests==2.32.3 (from -r requirements.txt (line 3))',
  },
  {
    what: 'Composer root requirement that no version satisfies',
    from: 'https://getcomposer.org/doc/articles/troubleshooting.md',
    line: '    - Root composer.json requires php ^8.2 but your php version (8.1.2) does not satisfy that requirement.',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: 'Loading composer repositories with package information',
  },
  {
    what: 'Cargo with a stale lock file under --locked',
    from: 'https://doc.rust-lang.org/cargo/commands/cargo-build.html#manifest-options',
    line: 'error: the lock file /home/runner/work/app/Cargo.lock needs to be updated but --locked was passed to prevent this',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: '    Updating crates.io index',
  },
  {
    what: 'Go build importing a package no module provides',
    from: 'https://go.dev/ref/mod#go-mod-tidy',
    line: 'main.go:5:2: no required module provides package github.com/x/y; to add it:',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: 'go: found github.com/x/y in github.com/x/y v1.2.3',
  },
  {
    what: 'Terraform init failing to get a provider',
    from: 'https://developer.hashicorp.com/terraform/language/files/dependency-lock',
    line: 'Error: Failed to query available provider packages',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: '- Installing hashicorp/aws v5.31.0...',
  },
  {
    what: 'Perl module missing from @INC',
    from: 'https://perldoc.perl.org/perldiag#Can%27t-locate-%25s',
    line: "Can't locate Test/Deep.pm in @INC (you may need to install the Test::Deep module) (@INC contains: /etc/perl /usr/local/lib/perl5) at t/basic.t line 4.",
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: 'Successfully installed Test-Deep-1.204',
  },
  {
    what: 'Go module TLS behind an intercepting proxy',
    from: 'https://pkg.go.dev/crypto/x509',
    line: 'go: github.com/x/y@v1.2.3: Get "https://proxy.golang.org/github.com/x/y/@v/v1.2.3.mod": tls: failed to verify certificate: x509: certificate signed by unknown authority',
    rule: 'dependencies/system-packages-and-network',
    category: 'dependency_network',
    lookalike: 'go: downloading golang.org/x/crypto v0.21.0',
  },
  {
    what: 'Bazel failing to fetch an external repository',
    from: 'https://bazel.build/external/overview',
    line: "ERROR: An error occurred during the fetch of repository 'rules_java':",
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
    lookalike: 'INFO: Repository rules_java instantiated at:',
  },
];

/** Lines quoted from public CI logs (`from`), prefixes included. */
const QUOTED: RuleCase[] = [
  {
    what: 'Maven refusing to retry a download whose failure it cached',
    from: 'https://github.com/apache/maven-resolver/blob/master/maven-resolver-impl/src/main/java/org/eclipse/aether/internal/impl/DefaultUpdateCheckManager.java (the message; Maven prefixes its goal failure)',
    line: '[ERROR] Failed to execute goal on project app: Could not resolve dependencies for project com.example:app:jar:1.0: Failure to find com.example:lib:jar:2.1 in https://repo.maven.apache.org/maven2 was cached in the local repository, resolution will not be reattempted until the update interval of central has elapsed or updates are forced -> [Help 1]',
    rule: 'dependencies/module-resolution',
    category: 'dependency_network',
  },
  {
    what: 'pnpm 10+ refusing unapproved dependency build scripts (a bracketed ERR_PNPM code)',
    from: 'https://github.com/kukaisolutions/kukaisolutions.github.io/blob/2c590c69f7c6517fb98941120fa31ef2780108f5/job-logs.txt',
    line: '2026-05-13T00:19:03.0666917Z [ERR_PNPM_IGNORED_BUILDS] Ignored build scripts: esbuild@0.21.5, sharp@0.33.5',
    rule: 'dependencies/javascript',
    category: 'dependency_network',
  },
  {
    what: "Python urllib's 404 for a file the app downloads at start",
    from: 'https://github.com/mtdewrocks/sports_analysis/blob/0dd28e8e3767d48a0d6564bda6779179ace25e8e/render_logs.txt',
    line: '2026-02-18T18:26:57.337057408Z urllib.error.HTTPError: HTTP Error 404: Not Found',
    rule: 'dependencies/system-packages-and-network',
    category: 'dependency_network',
  },
  {
    what: 'Bundler refusing a gem the Gemfile lacks (a Rails database adapter at dyno boot)',
    from: 'https://github.com/DaleSwanson/railsmap/blob/1db5b2a6f01d32ee04f64c3f8bdeafe781872cff/heroku.log',
    line: "2013-07-16T09:38:06.098167+00:00 app[web.1]: /app/vendor/bundle/ruby/2.0.0/gems/bundler-1.3.2/lib/bundler/rubygems_integration.rb:214:in `block in replace_gem': Please install the postgresql adapter: `gem install activerecord-postgresql-adapter` (pg is not part of the bundle. Add it to Gemfile.) (LoadError)",
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
  },
  {
    what: 'a .NET Framework targeting pack missing on the build machine (MSB3644)',
    from: 'https://github.com/ashishbhatt-afk/TF-Azure--RG/blob/185fe0f9738c3ac275a833da8f876af838eabb4c/1_Job%20(1).txt',
    line: '2022-04-13T16:46:03.3868473Z ##[error]C:\\Program Files\\Microsoft Visual Studio\\2022\\Enterprise\\MSBuild\\Current\\Bin\\Microsoft.Common.CurrentVersion.targets(1220,5): Error MSB3644: The reference assemblies for .NETFramework,Version=v4.6.1 were not found.',
    rule: 'dependencies/targeting-pack',
    category: 'dependency_network',
  },
  {
    what: "pkg-config's PKG_CHECK_MODULES in a configure script: a system library is missing",
    from: 'https://github.com/davidlacho/ojs-deploy/blob/07332aa906aa0b7f2f9f1640ba08bce102ba3aea/job-logs.txt',
    line: '2026-03-19T19:28:50.8125846Z configure: error: Package requirements (libxml-2.0 >= 2.9.0) were not met:',
    rule: 'dependencies/configure-missing-library',
    category: 'dependency_network',
  },
  {
    what: 'a Python import failing inside an installed package (an unpinned dependency moved on)',
    from: 'https://github.com/BRyan81-coder/seventhtime/blob/641f2398c7f9812154019fe8d56038c392c8725d/app.py',
    line: "ImportError: cannot import name 'url_quote' from 'werkzeug.urls' (/opt/render/project/src/.venv/lib/python3.13/site-packages/werkzeug/urls.py)",
    rule: 'dependencies/python-import-mismatch',
    category: 'dependency_network',
  },
  {
    what: 'dnf "nothing provides"',
    from: 'https://github.com/fedora-copr/logdetective-sample/blob/6bd8dbdf5b9c5e977a7e6202226960809109394b/data/0bcfc3d6-3b97-4dde-a2b4-1ae8dd378180/builder-live.log',
    line: '  - nothing provides clang = 13.0.0 needed by clang-rpm-macros-1-136.el115.noarch from https_download_copr_fedorainfracloud_org_results_fedora_llvm_team_clang_rpm_macros_fedora_releasever_basearch',
    rule: 'dependencies/build-root-packages',
    category: 'dependency_network',
  },
  {
    what: 'dnf "No match for argument"',
    from: 'https://github.com/fedora-copr/logdetective-sample/blob/6bd8dbdf5b9c5e977a7e6202226960809109394b/data/03588217-1fe3-4b5c-bbae-895d383251da/builder-live.log',
    line: 'No match for argument: pkgconfig(mjpegtools) >= 2.0.0',
    rule: 'dependencies/build-root-packages',
    category: 'dependency_network',
  },
  {
    what: 'mock `DEBUG util.py:` prefix before a dnf problem',
    from: 'https://github.com/fedora-copr/logdetective-sample/blob/6bd8dbdf5b9c5e977a7e6202226960809109394b/data/3b668dda-5516-498f-a0c4-fa13903e7ca7/root.log',
    line: 'DEBUG util.py:459:  Problem: nothing provides requested (python3dist(botocore) < 1.38~~ with python3dist(botocore) >= 1.37.14)',
    rule: 'dependencies/build-root-packages',
    category: 'dependency_network',
  },
  {
    what: 'a library that does not load (undefined symbol at import)',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/python-pgmagick_standard_x86_64.log',
    line: '[  931s] ImportError: /lib64/libboost_python-py3.so.1.88.0: undefined symbol: PyObject_DelAttr',
    rule: 'dependencies/library-or-fetch',
    category: 'dependency_network',
  },
  {
    what: 'git fetch answered 503',
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/assertfixer_1320/fail.log',
    line: "stderr: fatal: unable to access 'https://github.com/STAMP-project/AssertFixer.git/': The requested URL returned error: 503",
    rule: 'dependencies/library-or-fetch',
    category: 'dependency_network',
  },
  {
    what: 'autoconf: a library configure cannot find',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/kismet_standard_x86_64.log',
    line: '[   15s] configure: error: Failed to find OpenSSL library',
    rule: 'dependencies/configure-missing-library',
    category: 'dependency_network',
  },
  {
    what: 'CMake: a Find module that failed',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/C%2B%2B/BVLC%40caffe/failed/221812641.log',
    line: 'CMake Error at /usr/share/cmake-3.2/Modules/FindBoost.cmake:1201 (message):',
    rule: 'dependencies/configure-missing-library',
    category: 'dependency_network',
  },
  {
    what: 'conda packages not found',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Python/scikit-learn%40scikit-learn/failed/562395304.log',
    line: 'PackagesNotFoundError: The following packages are not available from current channels:',
    rule: 'dependencies/module-resolution',
    category: 'dependency_network',
  },
  {
    what: 'a source download that failed (rpm url helper)',
    from: 'https://github.com/fedora-copr/logdetective-sample/blob/6bd8dbdf5b9c5e977a7e6202226960809109394b/data/89460881-ab96-4597-905c-d0f8f48b9ef8/builder-live.log',
    line: "error: Couldn't download https://ftp.mozilla.org/pub/thunderbird/nightly/latest-comm-central-l10n/thunderbird-92.0a1.en-US.linux-x86_64.tar.bz2",
    rule: 'dependencies/library-or-fetch',
    category: 'dependency_network',
  },
  {
    what: 'BuildKit cannot fetch an image layer',
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages_dump/Build%20Terraform%20CLI%20Packages_/run312/fail.log',
    line: '2022-04-27T19:35:52.9928218Z error: failed to solve: failed to compute cache key: failed to copy: httpReadSeeker: failed open: could not fetch content descriptor sha256:df9b9388f04ad6279a7410b85cedfdcb2208c0a003da7ab5613af71079148139 (application/vnd.docker.image.rootfs.diff.tar.gzip) from remote: not found',
    rule: 'dependencies/library-or-fetch',
    category: 'dependency_network',
  },
  {
    what: 'Ivy/sbt unresolved dependency',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Scala/scala%40scala/failed/567103817.log',
    line: 'sbt.ResolveException: unresolved dependency: org.scala-lang#scala-compiler;2.12.9-bin-5d0a905-SNAPSHOT: not found',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
  },
  {
    what: 'a connection that could not be created (Emacs package archives)',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Lisp/purcell%40emacs.d/failed/495224858.log',
    line: '  signal(error ("Could not create connection to elpa.gnu.org:443"))',
    rule: 'dependencies/network',
    category: 'dependency_network',
  },
  {
    what: 'Docker Hub pull rate limit',
    from: 'https://docs.docker.com/docker-hub/usage/pulls/',
    line: 'toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
    rule: 'dependencies/transfer-cut-off',
    category: 'dependency_network',
  },
  {
    what: 'NuGet NU1101 package not found',
    from: 'https://learn.microsoft.com/nuget/reference/errors-and-warnings/nu1101',
    line: '/src/App/App.csproj : error NU1101: Unable to find package Contoso.Utils. No packages exist with this id in source(s): nuget.org',
    rule: 'dependencies/other-languages',
    category: 'dependency_network',
  },
  {
    what: 'sha256sum: a downloaded source whose checksum does not match',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Lua/martanne%40vis/failed/496555781.log',
    line: 'sha256sum: WARNING: 1 computed checksum did NOT match',
    rule: 'dependencies/transfer-cut-off',
    category: 'dependency_network',
  },
  {
    what: "Gradle `> Could not resolve project :x` behind fastlane's prefix",
    from: 'https://github.com/xiang2025-coder/myapptest/blob/becaf9d936080e25a5c948d76f7919aad7f006bc/issu.md',
    line: '[07:58:35]: \u25b8 > Could not resolve project :capacitor-android.',
    rule: 'dependencies/transfer-cut-off',
    category: 'dependency_network',
  },
  {
    what: "Ant's <get> failing to download",
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/travis_data/build_system_testing/161141427.log',
    line: '      [get] Error getting https://fpdownload.macromedia.com/get/flashplayer/updaters/23/playerglobal23_0.swc to /home/travis/build/jindrapetrik/jpexs-decompiler/flashlib/playerglobal23_0.swc',
    rule: 'dependencies/transfer-cut-off',
    category: 'dependency_network',
  },
  {
    what: 'Maven/Aether could not transfer an artifact',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Clojure/technomancy%40leiningen/failed/239201655.log',
    line: 'Could not transfer artifact clojure-complete:clojure-complete:jar:0.2.4 from/to clojars (https://repo.clojars.org/): Received fatal alert: protocol_version',
    rule: 'dependencies/transfer-cut-off',
    category: 'dependency_network',
  },
  {
    what: 'CocoaPods cannot reach its trunk CDN',
    from: 'https://github.com/CocoaPods/Core/blob/master/lib/cocoapods-core/cdn_source.rb',
    line: "[!] CDN: trunk URL couldn't be downloaded: https://cdn.cocoapods.org/CocoaPods-version.yml Response: Couldn't resolve host name",
    rule: 'dependencies/transfer-cut-off',
    category: 'dependency_network',
  },
  {
    what: 'CocoaPods cannot satisfy a pod',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Objective-C/ReactiveCocoa%40ReactiveCocoa/failed/522133183.log',
    line: 'nlNone of your spec sources contain a spec satisfying the dependency: `ReactiveCocoa (= 10.0.0)`.',
    rule: 'dependencies/transfer-cut-off',
    category: 'dependency_network',
  },
  {
    what: 'R CMD check: a required package is not available',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/R/twitter%40AnomalyDetection/failed/45992929.log',
    line: 'Package required but not available: ‘lubridate’',
    rule: 'dependencies/transfer-cut-off',
    category: 'dependency_network',
  },
  {
    what: 'wget refusing a certificate for another host',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Lua/cmusatyalab%40openface/failed/199278645.log',
    line: 'ERROR: no certificate subject alternative name matches',
    rule: 'dependencies/network',
    category: 'dependency_network',
  },
  {
    what: 'a plugin built for a newer Java runtime, loaded at run time',
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/jodatime_1837/fail.log',
    line: 'java.lang.UnsupportedClassVersionError: spoon/processing/ProcessorProperties has been compiled by a more recent version of the Java Runtime (class file version 55.0), this version of the Java Runtime only recognizes class file versions up to 52.0',
    rule: 'dependencies/transfer-cut-off',
    category: 'dependency_network',
  },
  {
    what: "Composer's solver",
    from: 'https://getcomposer.org/doc/articles/troubleshooting.md',
    line: '  Your requirements could not be resolved to an installable set of packages.',
    rule: 'dependencies/lockfile-or-solver',
    category: 'dependency_network',
  },
  {
    what: 'pnpm lock file out of date',
    from: 'https://github.com/ourongxing/chatgpt-vercel/issues/19 (the message as pnpm prints it)',
    line: 'ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with package.json',
    rule: 'dependencies/lockfile-or-solver',
    category: 'dependency_network',
  },
  {
    what: 'yarn --frozen-lockfile',
    from: 'https://classic.yarnpkg.com/lang/en/docs/cli/install/#toc-yarn-install-frozen-lockfile',
    line: 'error Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`.',
    rule: 'dependencies/lockfile-or-solver',
    category: 'dependency_network',
  },
  {
    what: 'npm ci with a lock file out of sync',
    from: 'https://manpages.ubuntu.com/manpages/noble/en/man1/npm-ci.1.html',
    line: 'npm ERR! `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing.',
    rule: 'dependencies/lockfile-or-solver',
    category: 'dependency_network',
  },
  {
    what: 'go.mod needing updates',
    from: 'https://go.dev/ref/mod#go-mod-file-updates',
    line: 'go: updates to go.mod needed; to update it:',
    rule: 'dependencies/lockfile-or-solver',
    category: 'dependency_network',
  },
  {
    what: "a Rust crate's native build",
    from: 'https://doc.rust-lang.org/cargo/reference/build-scripts.html',
    line: 'error: failed to run custom build command for `openssl-sys v0.9.80`',
    rule: 'dependencies/lockfile-or-solver',
    category: 'dependency_network',
  },
  {
    what: 'pip building a package from source',
    from: 'https://pip.pypa.io/en/stable/topics/dependency-resolution/',
    line: '  × Failed to build installable wheels for some pyproject.toml based projects (psycopg2)',
    rule: 'dependencies/lockfile-or-solver',
    category: 'dependency_network',
  },
];

/** Lines like these failures that are not one: warnings, echoed commands, passing runs. */
const LOOKALIKES: Lookalike[] = [
  // NuGet's NU1605 as a warning (without TreatWarningsAsErrors) does not fail the restore.
  {
    what: 'NU1605 warning',
    line: '/src/App/App.csproj : warning NU1605: Detected package downgrade: Foo from 2.0.0 to 1.0.0.',
    not: 'dependency_network',
  },
];

describe('dependencies rules', () => {
  itClassifiesFamilyLines(dependenciesFamily, {
    documented: DOCUMENTED,
    quoted: QUOTED,
    lookalikes: LOOKALIKES,
  });
});

describe('dependencies advice', () => {
  itGivesFamilyAdvice(dependenciesFamily, QUOTED, [
    {
      advice: 'dependencies/maven-cached-failure',
      what: 'Maven refusing to retry a download whose failure it cached',
    },
    {
      advice: 'dependencies/installed-package-changed',
      what: 'a Python import failing inside an installed package (an unpinned dependency moved on)',
    },
  ]);
});

describe('dependencies: lines', () => {
  it('reads the same Go error inside a module as a dependency problem', () => {
    const line = 'main.go:6:2: no required module provides package rsc.io/quote; to add it:';
    expect(classifyLine(line).category).toBe('dependency_network');
  });

  it('finds the rule behind a GitHub Actions timestamp', () => {
    expect(
      classifyLine(
        stripCiPrefix(
          "2024-05-01T10:00:00.1234567Z E: Package 'libfoo-dev' has no installation candidate",
        ),
      ),
    ).toMatchObject({ kind: 'error', category: 'dependency_network' });
  });
});

describe('dependencies: whole logs through the analyser', () => {
  it('still calls a download that cannot connect a network problem when no link checker ran', () => {
    const log = [
      '$ curl -fsSL https://example.invalid/tool.tar.gz -o tool.tar.gz',
      'curl: (6) Could not resolve host: example.invalid',
      'ERROR: Job failed: exit code 6',
    ];
    expectDiagnosis(log, 'dependency_network');
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

  it('calls a Yarn Berry install that finds no candidate a dependency failure, not a script error', () => {
    // https://yarnpkg.com/advanced/error-codes (YN0001 carrying the resolver's exception)
    const log = [
      '$ yarn install --immutable',
      '➤ YN0000: ┌ Resolution step',
      '➤ YN0001: │ Error: left-pad@npm:^9.9.9: No candidates found',
      '    at ge (/home/runner/.yarn/releases/yarn-3.6.4.cjs:439:8124)',
      '➤ YN0000: └ Completed in 0s 402ms',
      '➤ YN0000: Failed with errors in 0s 406ms',
      'Error: Process completed with exit code 1.',
    ];
    expectDiagnosis(log, 'dependency_network', 'No candidates found');
  });
});
