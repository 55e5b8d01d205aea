import { describe, expect, it } from 'vitest';
import { lineTemplate } from './green-diff.ts';
import { classifyLine, stripCiPrefix, type FailureCategory } from './line-rules.ts';
import { distillLog, stripAnsi } from './log-distiller.ts';

/**
 * One rule family, shown on lines quoted from a real public CI log (source in `from`). `line` is
 * the decisive line as the CI system printed it, prefixes included.
 */
interface RealExcerpt {
  family: string;
  from: string;
  line: string;
  category: FailureCategory;
}

const EXCERPTS: RealExcerpt[] = [
  {
    family: 'pnpm 10+ refusing unapproved dependency build scripts (a bracketed ERR_PNPM code)',
    from: 'https://github.com/kukaisolutions/kukaisolutions.github.io/blob/2c590c69f7c6517fb98941120fa31ef2780108f5/job-logs.txt',
    line: '2026-05-13T00:19:03.0666917Z [ERR_PNPM_IGNORED_BUILDS] Ignored build scripts: esbuild@0.21.5, sharp@0.33.5',
    category: 'dependency_network',
  },
  {
    family: "Python urllib's 404 for a file the app downloads at start",
    from: 'https://github.com/mtdewrocks/sports_analysis/blob/0dd28e8e3767d48a0d6564bda6779179ace25e8e/render_logs.txt',
    line: '2026-02-18T18:26:57.337057408Z urllib.error.HTTPError: HTTP Error 404: Not Found',
    category: 'dependency_network',
  },
  {
    family: 'the PostgreSQL JDBC driver given no password',
    from: 'https://github.com/ShivamKalia023/Gemini_Health/blob/aa5d657b1b00306ef002938f537dc49aee426de7/railway_logs.txt',
    line: 'Caused by: org.postgresql.util.PSQLException: The server requested SCRAM-based authentication, but no password was provided.',
    category: 'permission_auth',
  },
  {
    family: '`docker login` with an empty username secret (gh run view --log prefix)',
    from: 'https://github.com/Aysooda-Hh/project-startup-namer/blob/1ef7bf01743612d5704b206489392024d16167e7/ci-log.txt',
    line: 'build-deploy\tLog in to Docker Hub\t2025-06-04T19:22:04.9303627Z Must provide --username with --password-stdin',
    category: 'permission_auth',
  },
  {
    family: "softprops/action-gh-release refused by the API: an HTTP status in the action's words",
    from: 'https://github.com/austinsonger/jellyfin-torrent/blob/6141c8e14f42dcbb4b2acdc85fcf615024abb670/job-logs.txt',
    line: '2026-01-17T23:04:37.8642052Z ⚠️ GitHub release failed with status: 403',
    category: 'permission_auth',
  },
  {
    family: 'appleboy/ssh-action without its key secret',
    from: 'https://github.com/JCLEE94/safework/blob/41b88c60d05ec2d90f85047ff906f630d7c20809/0_deploy.txt',
    line: "2025-06-24T07:37:57.4544301Z 2025/06/24 07:37:57 Error: can't connect without a private SSH key or password",
    category: 'permission_auth',
  },
  {
    family: 'Bundler refusing a gem the Gemfile lacks (a Rails database adapter at dyno boot)',
    from: 'https://github.com/DaleSwanson/railsmap/blob/1db5b2a6f01d32ee04f64c3f8bdeafe781872cff/heroku.log',
    line: "2013-07-16T09:38:06.098167+00:00 app[web.1]: /app/vendor/bundle/ruby/2.0.0/gems/bundler-1.3.2/lib/bundler/rubygems_integration.rb:214:in `block in replace_gem': Please install the postgresql adapter: `gem install activerecord-postgresql-adapter` (pg is not part of the bundle. Add it to Gemfile.) (LoadError)",
    category: 'dependency_network',
  },
  {
    family: 'Meson given a value its option does not take',
    from: 'https://lore.kernel.org/linux-media/772924952.14.1600690692800@builder.linuxtv.org/',
    line: 'ERROR: Value "true" for combo option is not one of the choices. Possible choices are: "enabled", "disabled", "auto".',
    category: 'config_yaml',
  },
  {
    family: "Python's IndentationError behind Railway's deploy-log stream tag",
    from: 'https://github.com/courtneylee09/VerifAI/blob/101cc2e3d4da20c48fbfeb5c71e92e5da283651c/railway-logs.txt',
    line: '2025-12-30T18:59:25.257477753Z [err]  IndentationError: unexpected indent',
    category: 'compile_error',
  },
  {
    family:
      "an sbt test plugin's verdict under GoCD's timestamps (TextTest characterisation tests)",
    from: 'https://github.com/magnus-lycka/gocddash/blob/c1004135dc66b0d8394d6025750b94e12650ab36/test/test_characterize_console_parser.py',
    line: '08:27:48.492 java.lang.RuntimeException: There were test failures',
    category: 'test_failure',
  },
  {
    family: 'MSBuild unable to copy an output another process holds (MSB3021), not a compile error',
    from: 'https://github.com/jenkinsci/analysis-model/blob/9b50d2d46b0da0b77a201963327c0a5ce5641e28/src/test/resources/edu/hm/hafner/analysis/parser/issue7775.txt',
    line: '        c:\\WINDOWS\\Microsoft.NET\\Framework\\v3.5\\Microsoft.Common.targets(2703,9): error MSB3021: Unable to copy file "C:\\Dev\\knd\\XXX.Collector.Monitoring.Model\\bin\\Debug\\XXX.Collector.Monitoring.Model.dll" to "bin\\Debug\\XXX.Collector.Monitoring.Model.dll". The process cannot access the file',
    category: 'script_error',
  },
  {
    family: "Java's AccessDeniedException: the CI agent may not write its workspace",
    from: 'https://github.com/ardaozyaman/path_cicd/blob/f415e09f3eacbceb029699c8405663a10dc367cc/consoleOutput.txt',
    line: 'java.nio.file.AccessDeniedException: /var/jenkins_home/workspace/path_2_cicd',
    category: 'permission_auth',
  },
  {
    family: "the Solidity compiler's coded diagnostics (under Foundry's 'Compiler run failed')",
    from: 'https://github.com/g-centurion/KipuBankV3/blob/f85a56bc377fde6ebb3b1f1de096f6c34d4307d4/job-logs.txt',
    line: '2025-11-10T21:24:49.3417702Z Error (6275): Source "lib/openzeppelin-contracts/contracts/security/ReentrancyGuard.sol" not found: File not found. Searched the following locations: "/home/runner/work/KipuBankV3_TP4/KipuBankV3_TP4".',
    category: 'compile_error',
  },
  {
    family: 'an Android release signing config whose secret was empty',
    from: 'https://github.com/Xed-Editor/Xed-Editor/blob/26ccf049be567a5852b017ad9184bd4824da220d/job-logs.txt',
    line: '2026-06-26T17:27:31.4584482Z    > SigningConfig "release" is missing required property "storePassword".',
    category: 'permission_auth',
  },
  {
    family: 'a .NET Framework targeting pack missing on the build machine (MSB3644)',
    from: 'https://github.com/ashishbhatt-afk/TF-Azure--RG/blob/185fe0f9738c3ac275a833da8f876af838eabb4c/1_Job%20(1).txt',
    line: '2022-04-13T16:46:03.3868473Z ##[error]C:\\Program Files\\Microsoft Visual Studio\\2022\\Enterprise\\MSBuild\\Current\\Bin\\Microsoft.Common.CurrentVersion.targets(1220,5): Error MSB3644: The reference assemblies for .NETFramework,Version=v4.6.1 were not found.',
    category: 'dependency_network',
  },
  {
    family: "a registry refusing a push for a missing permission (Google's Artifact Registry)",
    from: 'https://github.com/Tejal1211/CyberStadium-AI/blob/991ffcd790ed166b0df1ffe9b9ecf2e84f4e0456/cloudbuild.log',
    line: 'denied: gcr.io repo does not exist. Creating on push requires the artifactregistry.repositories.createOnPush permission',
    category: 'permission_auth',
  },
  {
    family: "Azure Pipelines' build task given a solution pattern that matches nothing",
    from: 'https://github.com/mikolajroszak/orangefinansepl/blob/f2691c41a6195126b7b2f0ba59ffdd4b40ca261b/1_Job.txt',
    line: "2018-07-01T11:29:42.2986392Z ##[error]Solution not found using search pattern 'D:\\a\\1\\s\\**\\*.sln'.",
    category: 'config_yaml',
  },
  {
    family: "a Jenkinsfile the Groovy compiler chokes on (in source unit 'WorkflowScript')",
    from: 'https://github.com/stortfordyaw/PaaS/blob/b67c721f9dbaa50f199a298356b9ae9bd16827da/consoleText.txt',
    line: "Caused: BUG! exception in phase 'semantic analysis' in source unit 'WorkflowScript' unexpected NullpointerException",
    category: 'config_yaml',
  },
  {
    family: "pkg-config's PKG_CHECK_MODULES in a configure script: a system library is missing",
    from: 'https://github.com/davidlacho/ojs-deploy/blob/07332aa906aa0b7f2f9f1640ba08bce102ba3aea/job-logs.txt',
    line: '2026-03-19T19:28:50.8125846Z configure: error: Package requirements (libxml-2.0 >= 2.9.0) were not met:',
    category: 'dependency_network',
  },
  {
    family: 'a Jenkins build stopped by hand (a cancellation, like a CI timeout)',
    from: 'https://github.com/pankh600/Casestudy/blob/427a5f3582a874f14628f892b77899fbe6caa532/jenkins_log.txt',
    line: 'Aborted by Pankhuri Agrawal',
    category: 'timeout',
  },
  {
    family: 'a Jenkinsfile calling a section where the pipeline grammar has none',
    from: 'https://github.com/vidd1992/tipti-dev/blob/fae0007a16c424cadd9f1a90fb63efe4bfaab675/jenkins.log',
    line: "java.lang.NoSuchMethodError: No such DSL method 'post' found among steps [archive, bat, build, catchError, checkout, deleteDir, dir]",
    category: 'config_yaml',
  },
  {
    family: 'rootless podman without enough subordinate IDs for the image',
    from: 'https://github.com/rvanderpol3/podman-jenkins-bug/blob/885a49b0e19df140b0714f3bf0189b9b1e9db42b/jenkins-output.txt',
    line: 'Error: error creating build container: Error committing the finished image: error adding layer with blob "sha256:76608b6b9d54251299c5d3be69fdf53e05f97a3735bbcd5889c30ebb78608428": Error processing tar file(exit status 1): there might not be enough IDs available in the namespace (requested 192:192 for /run/systemd/netif): lchown /run/systemd/netif: invalid argument',
    category: 'config_yaml',
  },
  {
    family:
      "Prisma's P1001 behind Vercel's build-time prefix: the database the build needs is unreachable",
    from: 'https://github.com/pgtipping/Synthalyst/blob/c61d304ebbda13bb4ff7a6cbb21f525aa34f5e6a/docs/vercelLogs.md',
    line: "[16:01:19.372] Can't reach database server at `ep-noisy-mountain-a4gl2bkt-pooler.us-east-1.aws.neon.tech:5432`",
    category: 'dependency_network',
  },
  {
    family: 'a Python import failing inside an installed package (an unpinned dependency moved on)',
    from: 'https://github.com/BRyan81-coder/seventhtime/blob/641f2398c7f9812154019fe8d56038c392c8725d/app.py',
    line: "ImportError: cannot import name 'url_quote' from 'werkzeug.urls' (/opt/render/project/src/.venv/lib/python3.13/site-packages/werkzeug/urls.py)",
    category: 'dependency_network',
  },
  {
    family: 'an Android release build that cannot read its signing keystore',
    from: 'https://github.com/fuxue-linkong/Radio-area-partition-query/blob/d6b884f31681733fcf9f8992960f233c39c8d5b0/0_build.txt',
    line: '2026-06-19T15:30:30.6693420Z    > com.android.ide.common.signing.KeytoolException: Failed to read key *** from store "/home/runner/work/Radio-area-partition-query/Radio-area-partition-query/signing/release.keystore": not enough content',
    category: 'permission_auth',
  },
  {
    family: "BuildKit copying a path missing from the build context, behind BuildKit's step prefix",
    from: 'https://github.com/ozean-licht/ozean-licht/blob/67437b877c30eafa6cd439f2565b7c74bad57e1b/apps/storybook/docs/reports/deploy-debug-log-v4.md',
    line: '#10 ERROR: failed to calculate checksum of ref 85b54d85-a7b8-40e3-85e5-b96f5eb0ecb6::m5f4dh1o9bwabzsy5scrai05i: "/apps/storybook": not found',
    category: 'config_yaml',
  },
  {
    family: "Netlify's publish directory missing after the build, behind Netlify's clock prefix",
    from: 'https://github.com/priorprotocol/prior-protocol-testnet/blob/3544dc030fee48647da4f73192a8b8e28a3ef0a1/attached_assets/Pasted-7-34-37-AM-build-image-version-305a433542175847ae19d9789b7bf59fd8b9de02-noble-7-34-37-AM-buildb-1745131088518.txt',
    line: "7:35:09 AM:   Deploy did not succeed: Deploy directory 'client/dist' does not exist",
    category: 'config_yaml',
  },
  {
    family:
      "Cloudflare Pages refusing an output file over its size limit (wrangler's ✘ [ERROR] is not esbuild's)",
    from: 'https://github.com/cnmzsjbz199328/businessService/blob/f515fe04ed25746b805b34f851105bbac311a0f6/log.md',
    line: '2025-04-29T02:58:11.47021Z\t\u001b[31m✘ \u001b[41;31m[\u001b[41;97mERROR\u001b[41;31m]\u001b[0m \u001b[1mError: Pages only supports files up to 25 MiB in size\u001b[0m',
    category: 'config_yaml',
  },
  {
    family: "Android Lint's text report in a GitHub Actions annotation",
    from: 'https://github.com/priit2000/out-of-android/blob/24c2534eedabf9e8b830f70a69acbb7c20ac62e7/0_build.txt',
    line: '2025-08-20T18:09:49.5200315Z ##[error]/home/runner/work/out-of-android/out-of-android/app/src/main/AndroidManifest.xml:8: Error: Permission exists without corresponding hardware <uses-feature android:name="android.hardware.telephony" required="false"> tag [PermissionImpliesUnsupportedChromeOsHardware]',
    category: 'compile_error',
  },
  {
    family: "PowerShell's error record: a cmdlet of the job's script failed",
    from: 'https://github.com/ShrutiSaraswat/backend-ocr-project/blob/74bbd73e0f31fc1f55a814756a38d2652317beb8/Jenkinsfile',
    line: 'Start-Process : This command cannot be run because "RedirectStandardOutput" and "RedirectStandardError" are same. Give ',
    category: 'script_error',
  },
  {
    family: "next lint's error behind Vercel's build-time prefix",
    from: 'https://github.com/tmdc-io/modern-ui-component/blob/8f234f76b4ffa95f396cbb767cf30e626e82b03c/vercel.log',
    line: "13:39:31.419 57:9  Error: 'isVariantMode' is assigned a value but never used.  @typescript-eslint/no-unused-vars",
    category: 'compile_error',
  },
  {
    family:
      'a CI system stopping the job after a limit in minutes (DataKit CI), not a test timeout',
    from: 'https://github.com/avsm/mirage-ci-logs/blob/b59c3f627262adc40c6fc0409667287ffc62c301/log',
    line: '[2016-09-07 23:36.51] Failed: Exceeded timeout of 60 minutes',
    category: 'timeout',
  },
  {
    family: 'rustfmt check: a line over the maximum width',
    from: 'https://github.com/konard/uselessgoddess-dunes/blob/840afd290c2e670e087ea294a42286e6c23f00a6/ci-failure.log',
    line: 'Format\tCheck formatting\t2025-12-02T13:30:44.2897865Z error[internal]: line formatted, but exceeded maximum width (maximum: 80 (see `max_width` option), found: 87)',
    category: 'compile_error',
  },
  {
    family: 'a tool rejecting its configuration file (golangci-lint v2 config, v1 binary)',
    from: 'https://github.com/rtcdance/streamgate/blob/b9ccf74d4d44819a9bfe276b683f64fa47be1443/ci.log',
    line: '2026-01-29T07:54:11.5648845Z Error: you are using a configuration file for golangci-lint v2 with golangci-lint v1: please use golangci-lint v2',
    category: 'config_yaml',
  },
  {
    family: 'an analyser error with a source position (flutter analyze)',
    from: 'https://github.com/h223492759/jizhang-android/blob/99462d8d255f1e0bd3b6c90d020471c34b2b431f/ci_log.txt',
    line: "2026-08-16T10:38:32.3023561Z   error • A value of type 'String' can't be assigned to a variable of type 'double' • lib/core/api.dart:202:38 • invalid_assignment",
    category: 'compile_error',
  },
  {
    family: "Rust libtest's failing-test list",
    from: 'https://github.com/ThanhNguyxn/vietflux-ime/blob/2a2bc30be5bab9b6f88315a3a615f06cc40e1ace/ci_failure.log',
    line: '📊 Coverage\tRun coverage\t2025-12-21T13:06:32.8391523Z test chars::tests::test_with_tone ... FAILED',
    category: 'test_failure',
  },
  {
    family: 'a Rust panic with the thread id and the message on the next line (Rust 1.8x+)',
    from: 'https://github.com/ThanhNguyxn/vietflux-ime/blob/2a2bc30be5bab9b6f88315a3a615f06cc40e1ace/ci_failure.log',
    line: "📊 Coverage\tRun coverage\t2025-12-21T13:06:32.8574658Z thread 'chars::tests::test_with_tone' (6182) panicked at src/chars.rs:217:9:",
    category: 'test_failure',
  },
  {
    family: "Android's manifest merger",
    from: 'https://github.com/kingjjy-debug/my-android-app/blob/61e3684f1a644aeabe83111e68b83ae41522b7e2/ci.log',
    line: 'build\tBuild with Gradle\t2025-09-15T00:25:09.7602616Z > Manifest merger failed with multiple errors, see logs',
    category: 'compile_error',
  },
  {
    family: 'MSVC error C#### behind a GitHub Actions timestamp',
    from: 'https://github.com/gbionics/whole-body-estimators/issues/6',
    line: "2020-03-13T19:16:35.9373979Z D:\\a\\whole-body-estimators\\whole-body-estimators\\devices\\baseEstimatorV1\\include\\baseEstimatorV1.h(46,23): error C2065: 'M_PI': undeclared identifier [D:\\a\\whole-body-estimators\\whole-body-estimators\\build\\devices\\baseEstimatorV1\\baseEstimatorV1.vcxproj]",
    category: 'compile_error',
  },
  {
    family: 'implicit declaration behind an OBS build time',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/drbd_standard_x86_64.log',
    line: "[   68s] /home/abuild/rpmbuild/BUILD/drbd-9.1.23-build/drbd-9.1.23/default/./drbd_receiver.c:7128:25: error: implicit declaration of function 'del_timer'; did you mean 'add_timer'? [-Wimplicit-function-declaration]",
    category: 'compile_error',
  },
  {
    family: 'dnf "nothing provides"',
    from: 'https://github.com/fedora-copr/logdetective-sample/blob/6bd8dbdf5b9c5e977a7e6202226960809109394b/data/0bcfc3d6-3b97-4dde-a2b4-1ae8dd378180/builder-live.log',
    line: '  - nothing provides clang = 13.0.0 needed by clang-rpm-macros-1-136.el115.noarch from https_download_copr_fedorainfracloud_org_results_fedora_llvm_team_clang_rpm_macros_fedora_releasever_basearch',
    category: 'dependency_network',
  },
  {
    family: 'dnf "No match for argument"',
    from: 'https://github.com/fedora-copr/logdetective-sample/blob/6bd8dbdf5b9c5e977a7e6202226960809109394b/data/03588217-1fe3-4b5c-bbae-895d383251da/builder-live.log',
    line: 'No match for argument: pkgconfig(mjpegtools) >= 2.0.0',
    category: 'dependency_network',
  },
  {
    family: 'mock `DEBUG util.py:` prefix before a dnf problem',
    from: 'https://github.com/fedora-copr/logdetective-sample/blob/6bd8dbdf5b9c5e977a7e6202226960809109394b/data/3b668dda-5516-498f-a0c4-fa13903e7ca7/root.log',
    line: 'DEBUG util.py:459:  Problem: nothing provides requested (python3dist(botocore) < 1.38~~ with python3dist(botocore) >= 1.37.14)',
    category: 'dependency_network',
  },
  {
    family: 'AddressSanitizer summary behind Taskcluster and mozharness prefixes',
    from: 'https://github.com/mozilla/treeherder/blob/dc3080dd746d4732d5e06c0272471834d4639da0/tests/sample_data/logs/asan_too_large.log.gz',
    line: '[task 2025-02-13T22:10:09.075Z] 22:10:09     INFO - PID 16211 | SUMMARY: AddressSanitizer: heap-use-after-free /builds/worker/workspace/obj-build/dist/include/nsISupportsImpl.h:388:19 in operator++',
    category: 'test_failure',
  },
  {
    family: 'Mozilla TEST-UNEXPECTED-FAIL',
    from: 'https://github.com/mozilla/treeherder/blob/dc3080dd746d4732d5e06c0272471834d4639da0/tests/sample_data/logs/reftest-fail.log.gz',
    line: '[task 2025-02-13T21:27:46.822Z] 21:27:46     INFO - REFTEST TEST-UNEXPECTED-FAIL | layout/reftests/bugs/1804872-2.html == layout/reftests/bugs/1804872-2-ref.html | image comparison, max difference: 255, number of differing pixels: 22456',
    category: 'test_failure',
  },
  {
    family: 'Gradle `Class > test() FAILED` behind a GitHub Actions timestamp',
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/cidiff_57/fail.log',
    line: '2022-05-30T09:11:02.8576680Z ConsoleClientTest > testClassicParsing() FAILED',
    category: 'test_failure',
  },
  {
    family: "GitHub Actions '##[error]' annotation on a Go diagnostic",
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages_dump/Quick%20Checks_/run201/fail.log',
    line: '2022-04-19T19:10:42.7948967Z ##[error]/home/runner/work/terraform/terraform/internal/command/views/json/change.go:85:2: missing cases in switch of type plans.ResourceInstanceChangeActionReason: ResourceInstanceReplaceByTriggers',
    category: 'compile_error',
  },
  {
    family: "'gh run view --log' job and step columns",
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/cidiff_11/fail.log',
    line: 'build-test-deploy\tbuild cidiff\t2021-12-01T13:01:04.3807878Z LogDifferTest > testGithubParsing() FAILED',
    category: 'test_failure',
  },
  {
    family: "git's unsafe-repository refusal",
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/cv_45/fail.log',
    line: "2022-05-07T08:49:38.2847211Z fatal: unsafe repository ('/github/workspace' is owned by someone else)",
    category: 'permission_auth',
  },
  {
    family: 'a library that does not load (undefined symbol at import)',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/python-pgmagick_standard_x86_64.log',
    line: '[  931s] ImportError: /lib64/libboost_python-py3.so.1.88.0: undefined symbol: PyObject_DelAttr',
    category: 'dependency_network',
  },
  {
    family: 'git fetch answered 503',
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/assertfixer_1320/fail.log',
    line: "stderr: fatal: unable to access 'https://github.com/STAMP-project/AssertFixer.git/': The requested URL returned error: 503",
    category: 'dependency_network',
  },
  {
    family: 'autoconf: a library configure cannot find',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/kismet_standard_x86_64.log',
    line: '[   15s] configure: error: Failed to find OpenSSL library',
    category: 'dependency_network',
  },
  {
    family: 'CMake: a Find module that failed',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/C%2B%2B/BVLC%40caffe/failed/221812641.log',
    line: 'CMake Error at /usr/share/cmake-3.2/Modules/FindBoost.cmake:1201 (message):',
    category: 'dependency_network',
  },
  {
    family: 'a patch that no longer applies',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/cpupower_standard_x86_64.log',
    line: '[   49s] 1 out of 1 hunk FAILED -- saving rejects to file tools/power/cpupower/Makefile.rej',
    category: 'config_yaml',
  },
  {
    family: 'cloud credentials missing',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Java/iluwatar%40java-design-patterns/failed/565203161.log',
    line: '[wait] Failed to upload index.html (Access key cannot be null.). Trying again in 1 second.',
    category: 'permission_auth',
  },
  {
    family: 'TAP/prove: a test script that failed',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/C/git%40git/failed/565956904.log',
    line: '[12:45:05] t9502-gitweb-standalone-parse-output.sh ............ Dubious, test returned 1 (wstat 256, 0x100)',
    category: 'test_failure',
  },
  {
    family: 'PHPUnit numbered failure',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/PHP/bcit-ci%40CodeIgniter/failed/507107253.log',
    line: '1) Form_validation_test::test_rule_valid_date',
    category: 'test_failure',
  },
  {
    family: 'minitest failing test',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Ruby/rails%40rails/failed/517085282.log',
    line: 'DescendantsTrackerWithAutoloadingTest#test_descendants_with_garbage_collected_classes [/home/travis/build/rails/rails/activesupport/test/descendants_tracker_test_cases.rb:36]:',
    category: 'test_failure',
  },
  {
    family: 'CTest summary',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/oqs-provider_standard_x86_64.log',
    line: '[   10s] 0% tests passed, 6 tests failed out of 6',
    category: 'test_failure',
  },
  {
    family: 'conda packages not found',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Python/scikit-learn%40scikit-learn/failed/562395304.log',
    line: 'PackagesNotFoundError: The following packages are not available from current channels:',
    category: 'dependency_network',
  },
  {
    family: 'GitHub Actions job cancelled (timeout-minutes)',
    from: 'https://github.com/actions/runner/issues/1473',
    line: '  Error: The operation was canceled.',
    category: 'timeout',
  },
  {
    family: 'a full disk',
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/guava_2087/fail.log',
    line: '[ERROR] No space left on device',
    category: 'script_error',
  },
  {
    family: 'Taskcluster max run time',
    from: 'https://github.com/mozilla/treeherder/blob/dc3080dd746d4732d5e06c0272471834d4639da0/tests/sample_data/logs/taskcluster-only.log.gz',
    line: '[taskcluster:error] Task aborted - max run time exceeded',
    category: 'timeout',
  },
  {
    family: 'Travis stalled build',
    from: 'https://github.com/travis-ci/travis-ci/issues/6512',
    line: 'No output has been received in the last 10m0s, this potentially indicates a stalled build or something wrong with the build itself.',
    category: 'timeout',
  },
  {
    family: 'Travis command killed by `timeout` (exit 124)',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Haskell/purescript%40purescript/failed/549434310.log',
    line: 'The command "$TIMEOUT 35m ci/build.sh" exited with 124.',
    category: 'timeout',
  },
  {
    family: 'flake8 code',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Python/nvbn%40thefuck/failed/545320732.log',
    line: './thefuck/rules/terraform_init.py:8:9: E128 continuation line under-indented for visual indent',
    category: 'compile_error',
  },
  {
    family: 'a source download that failed (rpm url helper)',
    from: 'https://github.com/fedora-copr/logdetective-sample/blob/6bd8dbdf5b9c5e977a7e6202226960809109394b/data/89460881-ab96-4597-905c-d0f8f48b9ef8/builder-live.log',
    line: "error: Couldn't download https://ftp.mozilla.org/pub/thunderbird/nightly/latest-comm-central-l10n/thunderbird-92.0a1.en-US.linux-x86_64.tar.bz2",
    category: 'dependency_network',
  },
  {
    family: 'BuildKit cannot fetch an image layer',
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages_dump/Build%20Terraform%20CLI%20Packages_/run312/fail.log',
    line: '2022-04-27T19:35:52.9928218Z error: failed to solve: failed to compute cache key: failed to copy: httpReadSeeker: failed open: could not fetch content descriptor sha256:df9b9388f04ad6279a7410b85cedfdcb2208c0a003da7ab5613af71079148139 (application/vnd.docker.image.rootfs.diff.tar.gzip) from remote: not found',
    category: 'dependency_network',
  },
  {
    family: 'markdownlint rule code after file: line',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/JavaScript/airbnb%40javascript/failed/556132210.log',
    line: 'react/README.md: 29: MD012/no-multiple-blanks Multiple consecutive blank lines [Expected: 1; Actual: 2]',
    category: 'compile_error',
  },
  {
    family: 'Python logging level in parentheses (bitcoin test framework)',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/C%2B%2B/bitcoin%40bitcoin/failed/567204447.log',
    line: '\u001b[0;36m test  2019-08-03T03:44:23.176000Z TestFramework (ERROR): JSONRPC error \u001b[0m',
    category: 'script_error',
  },
  {
    family: 'Python tool log level in brackets (`[ ERROR   ]:`, KIWI image builder)',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/opensuse-tumbleweed-dnf-image%3Anetworkd-dnf_images_x86_64.log',
    line: "[   30s] [ ERROR   ]: 15:13:14 | KiwiScriptFailed: config.sh failed: + echo 'Configure image: [opensuse-tumbleweed-dnf-image]...'+ suseImportBuildKey+ local KEY+ local TDIR+ local KFN+ local dumpsigs=/usr/lib/rpm/gnupg/dumpsigs++ mktemp -d+ TDIR=/tmp/tmp.ARxc4HW7bY+ '[' '!' -d /tmp/tmp.ARxc4HW7bY ']'+ '[' -d /usr/lib/rpm/gnupg/keys ']'+ pushd /usr/lib/rpm/gnupg/keys+ for KFN in gpg-pubkey-*.asc+ '[' '!' -e gpg-pubkey-09d9ea69-67c857f3.asc ']'++ basename gpg-pubkey-09d9ea69-67c857f3.asc .asc+ KEY=gpg-pubkey-09d9ea69-67c857f3+ rpm -q gpg-pubkey-09d9ea69-67c857f3+ echo 'Importing gpg-pubkey-09d9ea69-67c857f3 to rpm database'+ rpm --import gpg-pubkey-09d9ea69-67c857f3.asc+ for KFN in gpg-pubkey-*.asc+ '[' '!' -e gpg-pubkey-287a0027-682477e3.asc ']'++ basename gpg-pubkey-287a0027-682477e3.asc .asc+ KEY=gpg-pubkey-287a0027-682477e3+ rpm -q gpg-pubkey-287a0027-682477e3+ echo 'Importing gpg-pubkey-287a0027-682477e3 to rpm database'+ rpm --import gpg-pubkey-287a0027-682477e3.asc+ for KFN in gpg-pubkey-*.asc+ '[' '!' -e gpg-pubkey-29b700a4-62b07e22.asc ']'++ basename gpg-pubkey-29b700a4-62b07e22.asc .asc+ KEY=gpg-pubkey-29b700a4-62b07e22+ rpm -q gpg-pubkey-29b700a4-62b07e22+ echo 'Importing gpg-pubkey-29b700a4-62b07e22 to rpm database'+ rpm --import gpg-pubkey-29b700a4-62b07e22.asc+ for KFN in gpg-pubkey-*.asc+ '[' '!' -e gpg-pubkey-39db7c82-66c5d91a.asc ']'++ basename gpg-pubkey-39db7c82-66c5d91a.asc .asc+ KEY=gpg-pubkey-39db7c82-66c5d91a+ rpm -q gpg-pubkey-39db7c82-66c5d91a+ echo 'Importing gpg-pubkey-39db7c82-66c5d91a to rpm database'+ rpm --import gpg-pubkey-39db7c82-66c5d91a.asc+ for KFN in gpg-pubkey-*.asc+ '[' '!' -e gpg-pubkey-3fa1d6ce-67c856ee.asc ']'++ basename gpg-pubkey-3fa1d6ce-67c856ee.asc .asc+ KEY=gpg-pubkey-3fa1d6ce-67c856ee+ rpm -q gpg-pubkey-3fa1d6ce-67c856ee+ echo 'Importing gpg-pubkey-3fa1d6ce-67c856ee to rpm database'+ rpm --import gpg-pubkey-3fa1d6ce-67c856ee.asc+ popd+ rm -rf /tmp/tmp.ARxc4HW7bY+ echo install_weak_deps=False+ echo tsflags=nodocs+ shopt -s globstar+ rm -f /usr/share/locale/af/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/af/LC_MESSAGES/pam-config.mo /usr/share/locale/ar/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ar/LC_MESSAGES/p11-kit.mo /usr/share/locale/ar/LC_MESSAGES/pam-config.mo /usr/share/locale/ar/LC_MESSAGES/rpm.mo /usr/share/locale/as/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/as/LC_MESSAGES/libdnf.mo /usr/share/locale/as/LC_MESSAGES/p11-kit.mo /usr/share/locale/ast/LC_MESSAGES/p11-kit.mo /usr/share/locale/az/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/az/LC_MESSAGES/p11-kit.mo /usr/share/locale/be/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/bg/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/bg/LC_MESSAGES/libdnf.mo /usr/share/locale/bg/LC_MESSAGES/p11-kit.mo /usr/share/locale/bg/LC_MESSAGES/pam-config.mo /usr/share/locale/bn/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/bn/LC_MESSAGES/libdnf.mo /usr/share/locale/bn/LC_MESSAGES/pam-config.mo /usr/share/locale/bn_IN/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/bn_IN/LC_MESSAGES/libdnf.mo /usr/share/locale/bn_IN/LC_MESSAGES/p11-kit.mo /usr/share/locale/br/LC_MESSAGES/rpm.mo /usr/share/locale/bs/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/bs/LC_MESSAGES/pam-config.mo /usr/share/locale/bs/LC_MESSAGES/shadow.mo /usr/share/locale/ca/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ca/LC_MESSAGES/libdnf.mo /usr/share/locale/ca/LC_MESSAGES/p11-kit.mo /usr/share/locale/ca/LC_MESSAGES/pam-config.mo /usr/share/locale/ca/LC_MESSAGES/rpm.mo /usr/share/locale/ca/LC_MESSAGES/shadow.mo /usr/share/locale/ca@valencia/LC_MESSAGES/p11-kit.mo /usr/share/locale/cs/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/cs/LC_MESSAGES/kbd.mo /usr/share/locale/cs/LC_MESSAGES/libdnf.mo /usr/share/locale/cs/LC_MESSAGES/libgpg-error.mo /usr/share/locale/cs/LC_MESSAGES/p11-kit.mo /usr/share/locale/cs/LC_MESSAGES/pam-config.mo /usr/share/locale/cs/LC_MESSAGES/rpm.mo /usr/share/locale/cs/LC_MESSAGES/shadow.mo /usr/share/locale/cy/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/cy/LC_MESSAGES/p11-kit.mo /usr/share/locale/cy/LC_MESSAGES/pam-config.mo /usr/share/locale/da/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/da/LC_MESSAGES/kbd.mo /usr/share/locale/da/LC_MESSAGES/libdnf.mo /usr/share/locale/da/LC_MESSAGES/libgpg-error.mo /usr/share/locale/da/LC_MESSAGES/p11-kit.mo /usr/share/locale/da/LC_MESSAGES/pam-config.mo /usr/share/locale/da/LC_MESSAGES/rpm.mo /usr/share/locale/da/LC_MESSAGES/shadow.mo /usr/share/locale/de/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/de/LC_MESSAGES/kbd.mo /usr/share/locale/de/LC_MESSAGES/libdnf.mo /usr/share/locale/de/LC_MESSAGES/libgpg-error.mo /usr/share/locale/de/LC_MESSAGES/mit-krb5.mo /usr/share/locale/de/LC_MESSAGES/p11-kit.mo /usr/share/locale/de/LC_MESSAGES/pam-config.mo /usr/share/locale/de/LC_MESSAGES/shadow.mo /usr/share/locale/de_CH/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/dz/LC_MESSAGES/shadow.mo /usr/share/locale/el/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/el/LC_MESSAGES/kbd.mo /usr/share/locale/el/LC_MESSAGES/libdnf.mo /usr/share/locale/el/LC_MESSAGES/p11-kit.mo /usr/share/locale/el/LC_MESSAGES/pam-config.mo /usr/share/locale/el/LC_MESSAGES/rpm.mo /usr/share/locale/el/LC_MESSAGES/shadow.mo /usr/share/locale/en_GB/LC_MESSAGES/p11-kit.mo /usr/share/locale/en_GB/LC_MESSAGES/pam-config.mo /usr/share/locale/en_US/LC_MESSAGES/mit-krb5.mo /usr/share/locale/en_US/LC_MESSAGES/pam-config.mo /usr/share/locale/eo/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/eo/LC_MESSAGES/kbd.mo /usr/share/locale/eo/LC_MESSAGES/libgpg-error.mo /usr/share/locale/eo/LC_MESSAGES/p11-kit.mo /usr/share/locale/eo/LC_MESSAGES/rpm.mo /usr/share/locale/es/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/es/LC_MESSAGES/kbd.mo /usr/share/locale/es/LC_MESSAGES/libdnf.mo /usr/share/locale/es/LC_MESSAGES/libgpg-error.mo /usr/share/locale/es/LC_MESSAGES/p11-kit.mo /usr/share/locale/es/LC_MESSAGES/pam-config.mo /usr/share/locale/es/LC_MESSAGES/rpm.mo /usr/share/locale/es/LC_MESSAGES/shadow.mo /usr/share/locale/et/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/et/LC_MESSAGES/p11-kit.mo /usr/share/locale/et/LC_MESSAGES/pam-config.mo /usr/share/locale/eu/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/eu/LC_MESSAGES/libdnf.mo /usr/share/locale/eu/LC_MESSAGES/p11-kit.mo /usr/share/locale/eu/LC_MESSAGES/shadow.mo /usr/share/locale/fa/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/fa/LC_MESSAGES/libdnf.mo /usr/share/locale/fa/LC_MESSAGES/p11-kit.mo /usr/share/locale/fi/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/fi/LC_MESSAGES/libdnf.mo /usr/share/locale/fi/LC_MESSAGES/p11-kit.mo /usr/share/locale/fi/LC_MESSAGES/pam-config.mo /usr/share/locale/fi/LC_MESSAGES/rpm.mo /usr/share/locale/fi/LC_MESSAGES/shadow.mo /usr/share/locale/fr/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/fr/LC_MESSAGES/libdnf.mo /usr/share/locale/fr/LC_MESSAGES/libgpg-error.mo /usr/share/locale/fr/LC_MESSAGES/p11-kit.mo /usr/share/locale/fr/LC_MESSAGES/pam-config.mo /usr/share/locale/fr/LC_MESSAGES/rpm.mo /usr/share/locale/fr/LC_MESSAGES/shadow.mo /usr/share/locale/fur/LC_MESSAGES/libdnf.mo /usr/share/locale/fur/LC_MESSAGES/p11-kit.mo /usr/share/locale/ga/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ga/LC_MESSAGES/p11-kit.mo /usr/share/locale/gl/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/gl/LC_MESSAGES/p11-kit.mo /usr/share/locale/gl/LC_MESSAGES/pam-config.mo /usr/share/locale/gl/LC_MESSAGES/shadow.mo /usr/share/locale/gu/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/gu/LC_MESSAGES/libdnf.mo /usr/share/locale/gu/LC_MESSAGES/p11-kit.mo /usr/share/locale/gu/LC_MESSAGES/pam-config.mo /usr/share/locale/gu/LC_MESSAGES/rpm.mo /usr/share/locale/he/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/he/LC_MESSAGES/p11-kit.mo /usr/share/locale/he/LC_MESSAGES/pam-config.mo /usr/share/locale/he/LC_MESSAGES/rpm.mo /usr/share/locale/he/LC_MESSAGES/shadow.mo /usr/share/locale/hi/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/hi/LC_MESSAGES/libdnf.mo /usr/share/locale/hi/LC_MESSAGES/p11-kit.mo /usr/share/locale/hi/LC_MESSAGES/pam-config.mo /usr/share/locale/hr/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/hr/LC_MESSAGES/p11-kit.mo /usr/share/locale/hr/LC_MESSAGES/pam-config.mo /usr/share/locale/hu/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/hu/LC_MESSAGES/kbd.mo /usr/share/locale/hu/LC_MESSAGES/libdnf.mo /usr/share/locale/hu/LC_MESSAGES/libgpg-error.mo /usr/share/locale/hu/LC_MESSAGES/p11-kit.mo /usr/share/locale/hu/LC_MESSAGES/pam-config.mo /usr/share/locale/hu/LC_MESSAGES/shadow.mo /usr/share/locale/ia/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ia/LC_MESSAGES/libdnf.mo /usr/share/locale/ia/LC_MESSAGES/p11-kit.mo /usr/share/locale/id/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/id/LC_MESSAGES/kbd.mo /usr/share/locale/id/LC_MESSAGES/libdnf.mo /usr/share/locale/id/LC_MESSAGES/p11-kit.mo /usr/share/locale/id/LC_MESSAGES/pam-config.mo /usr/share/locale/id/LC_MESSAGES/rpm.mo /usr/share/locale/id/LC_MESSAGES/shadow.mo /usr/share/locale/is/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/is/LC_MESSAGES/libdnf.mo /usr/share/locale/is/LC_MESSAGES/rpm.mo /usr/share/locale/it/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/it/LC_MESSAGES/kbd.mo /usr/share/locale/it/LC_MESSAGES/libdnf.mo /usr/share/locale/it/LC_MESSAGES/libgpg-error.mo /usr/share/locale/it/LC_MESSAGES/p11-kit.mo /usr/share/locale/it/LC_MESSAGES/pam-config.mo /usr/share/locale/it/LC_MESSAGES/rpm.mo /usr/share/locale/it/LC_MESSAGES/shadow.mo /usr/share/locale/ja/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ja/LC_MESSAGES/libdnf.mo /usr/share/locale/ja/LC_MESSAGES/libgpg-error.mo /usr/share/locale/ja/LC_MESSAGES/p11-kit.mo /usr/share/locale/ja/LC_MESSAGES/pam-config.mo /usr/share/locale/ja/LC_MESSAGES/rpm.mo /usr/share/locale/ja/LC_MESSAGES/shadow.mo /usr/share/locale/ka/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ka/LC_MESSAGES/kbd.mo /usr/share/locale/ka/LC_MESSAGES/libdnf.mo /usr/share/locale/ka/LC_MESSAGES/mit-krb5.mo /usr/share/locale/ka/LC_MESSAGES/p11-kit.mo /usr/share/locale/ka/LC_MESSAGES/pam-config.mo /usr/share/locale/ka/LC_MESSAGES/rpm.mo /usr/share/locale/ka/LC_MESSAGES/shadow.mo /usr/share/locale/kk/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/kk/LC_MESSAGES/p11-kit.mo /usr/share/locale/kk/LC_MESSAGES/shadow.mo /usr/share/locale/km/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/km/LC_MESSAGES/pam-config.mo /usr/share/locale/km/LC_MESSAGES/shadow.mo /usr/share/locale/kn/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/kn/LC_MESSAGES/libdnf.mo /usr/share/locale/kn/LC_MESSAGES/p11-kit.mo /usr/share/locale/ko/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ko/LC_MESSAGES/libdnf.mo /usr/share/locale/ko/LC_MESSAGES/p11-kit.mo /usr/share/locale/ko/LC_MESSAGES/pam-config.mo /usr/share/locale/ko/LC_MESSAGES/rpm.mo /usr/share/locale/ko/LC_MESSAGES/shadow.mo /usr/share/locale/lt/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/lt/LC_MESSAGES/p11-kit.mo /usr/share/locale/lt/LC_MESSAGES/pam-config.mo /usr/share/locale/lv/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/lv/LC_MESSAGES/p11-kit.mo /usr/share/locale/mai/LC_MESSAGES/libdnf.mo /usr/share/locale/mk/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/mk/LC_MESSAGES/pam-config.mo /usr/share/locale/ml/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ml/LC_MESSAGES/libdnf.mo /usr/share/locale/ml/LC_MESSAGES/p11-kit.mo /usr/share/locale/mr/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/mr/LC_MESSAGES/libdnf.mo /usr/share/locale/mr/LC_MESSAGES/p11-kit.mo /usr/share/locale/mr/LC_MESSAGES/pam-config.mo /usr/share/locale/ms/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ms/LC_MESSAGES/p11-kit.mo /usr/share/locale/ms/LC_MESSAGES/rpm.mo /usr/share/locale/nb/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/nb/LC_MESSAGES/libdnf.mo /usr/share/locale/nb/LC_MESSAGES/p11-kit.mo /usr/share/locale/nb/LC_MESSAGES/pam-config.mo /usr/share/locale/nb/LC_MESSAGES/rpm.mo /usr/share/locale/nb/LC_MESSAGES/shadow.mo /usr/share/locale/ne/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ne/LC_MESSAGES/shadow.mo /usr/share/locale/nl/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/nl/LC_MESSAGES/kbd.mo /usr/share/locale/nl/LC_MESSAGES/libdnf.mo /usr/share/locale/nl/LC_MESSAGES/libgpg-error.mo /usr/share/locale/nl/LC_MESSAGES/p11-kit.mo /usr/share/locale/nl/LC_MESSAGES/pam-config.mo /usr/share/locale/nl/LC_MESSAGES/rpm.mo /usr/share/locale/nl/LC_MESSAGES/shadow.mo /usr/share/locale/nn/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/nn/LC_MESSAGES/p11-kit.mo /usr/share/locale/nn/LC_MESSAGES/shadow.mo /usr/share/locale/oc/LC_MESSAGES/p11-kit.mo /usr/share/locale/or/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/or/LC_MESSAGES/libdnf.mo /usr/share/locale/or/LC_MESSAGES/p11-kit.mo /usr/share/locale/pa/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/pa/LC_MESSAGES/libdnf.mo /usr/share/locale/pa/LC_MESSAGES/p11-kit.mo /usr/share/locale/pa/LC_MESSAGES/pam-config.mo /usr/share/locale/pa/LC_MESSAGES/rpm.mo /usr/share/locale/pl/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/pl/LC_MESSAGES/kbd.mo /usr/share/locale/pl/LC_MESSAGES/libdnf.mo /usr/share/locale/pl/LC_MESSAGES/libgpg-error.mo /usr/share/locale/pl/LC_MESSAGES/p11-kit.mo /usr/share/locale/pl/LC_MESSAGES/pam-config.mo /usr/share/locale/pl/LC_MESSAGES/rpm.mo /usr/share/locale/pl/LC_MESSAGES/shadow.mo /usr/share/locale/pt/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/pt/LC_MESSAGES/kbd.mo /usr/share/locale/pt/LC_MESSAGES/libdnf.mo /usr/share/locale/pt/LC_MESSAGES/libgpg-error.mo /usr/share/locale/pt/LC_MESSAGES/p11-kit.mo /usr/share/locale/pt/LC_MESSAGES/pam-config.mo /usr/share/locale/pt/LC_MESSAGES/rpm.mo /usr/share/locale/pt/LC_MESSAGES/shadow.mo /usr/share/locale/pt_BR/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/pt_BR/LC_MESSAGES/kbd.mo /usr/share/locale/pt_BR/LC_MESSAGES/libdnf.mo /usr/share/locale/pt_BR/LC_MESSAGES/p11-kit.mo /usr/share/locale/pt_BR/LC_MESSAGES/pam-config.mo /usr/share/locale/pt_BR/LC_MESSAGES/rpm.mo /usr/share/locale/pt_BR/LC_MESSAGES/shadow.mo /usr/share/locale/ro/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ro/LC_MESSAGES/kbd.mo /usr/share/locale/ro/LC_MESSAGES/libgpg-error.mo /usr/share/locale/ro/LC_MESSAGES/p11-kit.mo /usr/share/locale/ro/LC_MESSAGES/pam-config.mo /usr/share/locale/ro/LC_MESSAGES/shadow.mo /usr/share/locale/ru/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ru/LC_MESSAGES/kbd.mo /usr/share/locale/ru/LC_MESSAGES/libdnf.mo /usr/share/locale/ru/LC_MESSAGES/libgpg-error.mo /usr/share/locale/ru/LC_MESSAGES/p11-kit.mo /usr/share/locale/ru/LC_MESSAGES/pam-config.mo /usr/share/locale/ru/LC_MESSAGES/rpm.mo /usr/share/locale/ru/LC_MESSAGES/shadow.mo /usr/share/locale/si/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/si/LC_MESSAGES/libdnf.mo /usr/share/locale/si/LC_MESSAGES/p11-kit.mo /usr/share/locale/si/LC_MESSAGES/pam-config.mo /usr/share/locale/si/LC_MESSAGES/rpm.mo /usr/share/locale/sk/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/sk/LC_MESSAGES/libdnf.mo /usr/share/locale/sk/LC_MESSAGES/p11-kit.mo /usr/share/locale/sk/LC_MESSAGES/pam-config.mo /usr/share/locale/sk/LC_MESSAGES/rpm.mo /usr/share/locale/sk/LC_MESSAGES/shadow.mo /usr/share/locale/sl/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/sl/LC_MESSAGES/p11-kit.mo /usr/share/locale/sl/LC_MESSAGES/pam-config.mo /usr/share/locale/sl/LC_MESSAGES/rpm.mo /usr/share/locale/sq/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/sq/LC_MESSAGES/kbd.mo /usr/share/locale/sq/LC_MESSAGES/libdnf.mo /usr/share/locale/sq/LC_MESSAGES/p11-kit.mo /usr/share/locale/sq/LC_MESSAGES/shadow.mo /usr/share/locale/sr/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/sr/LC_MESSAGES/kbd.mo /usr/share/locale/sr/LC_MESSAGES/libdnf.mo /usr/share/locale/sr/LC_MESSAGES/libgpg-error.mo /usr/share/locale/sr/LC_MESSAGES/p11-kit.mo /usr/share/locale/sr/LC_MESSAGES/pam-config.mo /usr/share/locale/sr/LC_MESSAGES/rpm.mo /usr/share/locale/sr@latin/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/sr@latin/LC_MESSAGES/libdnf.mo /usr/share/locale/sr@latin/LC_MESSAGES/p11-kit.mo /usr/share/locale/sr@latin/LC_MESSAGES/rpm.mo /usr/share/locale/sv/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/sv/LC_MESSAGES/kbd.mo /usr/share/locale/sv/LC_MESSAGES/libdnf.mo /usr/share/locale/sv/LC_MESSAGES/libgpg-error.mo /usr/share/locale/sv/LC_MESSAGES/p11-kit.mo /usr/share/locale/sv/LC_MESSAGES/pam-config.mo /usr/share/locale/sv/LC_MESSAGES/rpm.mo /usr/share/locale/sv/LC_MESSAGES/shadow.mo /usr/share/locale/ta/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/ta/LC_MESSAGES/libdnf.mo /usr/share/locale/ta/LC_MESSAGES/p11-kit.mo /usr/share/locale/ta/LC_MESSAGES/pam-config.mo /usr/share/locale/te/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/te/LC_MESSAGES/libdnf.mo /usr/share/locale/te/LC_MESSAGES/p11-kit.mo /usr/share/locale/te/LC_MESSAGES/rpm.mo /usr/share/locale/th/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/th/LC_MESSAGES/libdnf.mo /usr/share/locale/th/LC_MESSAGES/p11-kit.mo /usr/share/locale/th/LC_MESSAGES/pam-config.mo /usr/share/locale/tr/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/tr/LC_MESSAGES/kbd.mo /usr/share/locale/tr/LC_MESSAGES/libdnf.mo /usr/share/locale/tr/LC_MESSAGES/libgpg-error.mo /usr/share/locale/tr/LC_MESSAGES/p11-kit.mo /usr/share/locale/tr/LC_MESSAGES/pam-config.mo /usr/share/locale/tr/LC_MESSAGES/rpm.mo /usr/share/locale/tr/LC_MESSAGES/shadow.mo /usr/share/locale/uk/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/uk/LC_MESSAGES/kbd.mo /usr/share/locale/uk/LC_MESSAGES/libdnf.mo /usr/share/locale/uk/LC_MESSAGES/libgpg-error.mo /usr/share/locale/uk/LC_MESSAGES/p11-kit.mo /usr/share/locale/uk/LC_MESSAGES/pam-config.mo /usr/share/locale/uk/LC_MESSAGES/rpm.mo /usr/share/locale/uk/LC_MESSAGES/shadow.mo /usr/share/locale/vi/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/vi/LC_MESSAGES/kbd.mo /usr/share/locale/vi/LC_MESSAGES/libgpg-error.mo /usr/share/locale/vi/LC_MESSAGES/p11-kit.mo /usr/share/locale/vi/LC_MESSAGES/pam-config.mo /usr/share/locale/vi/LC_MESSAGES/rpm.mo /usr/share/locale/vi/LC_MESSAGES/shadow.mo /usr/share/locale/wa/LC_MESSAGES/p11-kit.mo /usr/share/locale/wa/LC_MESSAGES/pam-config.mo /usr/share/locale/zh_CN/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/zh_CN/LC_MESSAGES/kbd.mo /usr/share/locale/zh_CN/LC_MESSAGES/libdnf.mo /usr/share/locale/zh_CN/LC_MESSAGES/libgpg-error.mo /usr/share/locale/zh_CN/LC_MESSAGES/p11-kit.mo /usr/share/locale/zh_CN/LC_MESSAGES/pam-config.mo /usr/share/locale/zh_CN/LC_MESSAGES/rpm.mo /usr/share/locale/zh_CN/LC_MESSAGES/shadow.mo /usr/share/locale/zh_HK/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/zh_HK/LC_MESSAGES/p11-kit.mo /usr/share/locale/zh_TW/LC_MESSAGES/Linux-PAM.mo /usr/share/locale/zh_TW/LC_MESSAGES/libdnf.mo /usr/share/locale/zh_TW/LC_MESSAGES/libgpg-error.mo /usr/share/locale/zh_TW/LC_MESSAGES/p11-kit.mo /usr/share/locale/zh_TW/LC_MESSAGES/pam-config.mo /usr/share/locale/zh_TW/LC_MESSAGES/rpm.mo /usr/share/locale/zh_TW/LC_MESSAGES/shadow.mo+ rm -rf '/var/cache/dnf/*'+ rm -rf '/var/cache/yum/*'+ [[ networkd-dnf == *\\n\\e\\t\\w\\o\\r\\k\\d* ]]+ systemctl enable systemd-networkdCreated symlink '/etc/systemd/system/dbus-org.freedesktop.network1.service' -> '/usr/lib/systemd/system/systemd-networkd.service'.Created symlink '/etc/systemd/system/multi-user.target.wants/systemd-networkd.service' -> '/usr/lib/systemd/system/systemd-networkd.service'.Created symlink '/etc/systemd/system/sockets.target.wants/systemd-networkd.socket' -> '/usr/lib/systemd/system/systemd-networkd.socket'.Failed to enable auxiliary unit systemd-network-generator.service, ignoring.Created symlink '/etc/systemd/system/network-online.target.wants/systemd-networkd-wait-online.service' -> '/usr/lib/systemd/system/systemd-networkd-wait-online.service'.+ systemctl enable systemd-resolvedFailed to enable unit: Unit systemd-resolved.service does not exist",
    category: 'script_error',
  },
  {
    family: 'an error verdict that quotes a `set -euo pipefail` command (podman build)',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/mariadb-image_containerfile_x86_64.log',
    line: '[   42s] Error: building at STEP "RUN set -euo pipefail;     [ "$(rpm --root /target -q --qf \'%{version}\' mariadb |     cut -d \'.\' -f -2)" = "11.7" ]": while running runtime: exit status 1',
    category: 'script_error',
  },
  {
    family: 'sbt `[error] file.scala:78:` compiler error',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Scala/scala%40scala/failed/567103817.log',
    line: '\u001b[0m[\u001b[31merror\u001b[0m] \u001b[0m/home/travis/build/scala/scala/src/reflect/scala/reflect/internal/util/Collections.scala:78: type mismatch;\u001b[0m',
    category: 'compile_error',
  },
  {
    family: 'Ivy/sbt unresolved dependency',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Scala/scala%40scala/failed/567103817.log',
    line: 'sbt.ResolveException: unresolved dependency: org.scala-lang#scala-compiler;2.12.9-bin-5d0a905-SNAPSHOT: not found',
    category: 'dependency_network',
  },
  {
    family: 'TSLint `ERROR: file:line:col rule`',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/TypeScript/Microsoft%40TypeScript/failed/567573637.log',
    line: '\u001b[31mERROR\u001b[39m: /home/travis/build/microsoft/TypeScript/src/compiler/checker.ts:20269:48 \u001b[90mboolean-trivia\u001b[39m \u001b[33mTag argument with parameter name\u001b[39m',
    category: 'compile_error',
  },
  {
    family: 'PHPStan summary `[ERROR] Found 1 error`',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/PHP/composer%40composer/failed/566904372.log',
    line: ' [ERROR] Found 1 error                                                          ',
    category: 'compile_error',
  },
  {
    family: 'a connection that could not be created (Emacs package archives)',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Lisp/purcell%40emacs.d/failed/495224858.log',
    line: '  signal(error ("Could not create connection to elpa.gnu.org:443"))',
    category: 'dependency_network',
  },
  {
    family: 'xcodebuild asked for a simulator destination that does not exist',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Swift/SwiftyJSON%40SwiftyJSON/failed/364917910.log',
    line: 'xcodebuild: error: Unable to find a destination matching the provided destination specifier:',
    category: 'config_yaml',
  },
  {
    family: "make's `No rule to make target`",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Rust/redox-os%40redox/failed/391353410.log',
    line: "make: *** No rule to make target `travis'.  Stop.",
    category: 'script_error',
  },
  {
    family: "gcc's driver losing cc1plus to the OOM killer",
    from: 'https://gcc.gnu.org/bugzilla/show_bug.cgi?id=71877 (the message as gcc prints it)',
    line: 'c++: fatal error: Killed signal terminated program cc1plus',
    category: 'oom_killed',
  },
  {
    family: 'Azure Pipelines job time limit',
    from: 'https://learn.microsoft.com/azure/devops/pipelines/process/phases#timeouts',
    line: '##[error]The job running on agent Hosted Agent ran longer than the maximum time of 60 minutes. For more information, see https://go.microsoft.com/fwlink/?linkid=2077134',
    category: 'timeout',
  },
  {
    family: 'Docker Hub pull rate limit',
    from: 'https://docs.docker.com/docker-hub/usage/pulls/',
    line: 'toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
    category: 'dependency_network',
  },
  {
    family: 'NuGet NU1101 package not found',
    from: 'https://learn.microsoft.com/nuget/reference/errors-and-warnings/nu1101',
    line: '/src/App/App.csproj : error NU1101: Unable to find package Contoso.Utils. No packages exist with this id in source(s): nuget.org',
    category: 'dependency_network',
  },
  {
    family: 'git push refused by the host',
    from: 'https://docs.github.com/en/authentication/troubleshooting-ssh/error-permission-denied-publickey',
    line: 'remote: Permission to octo-org/octo-repo.git denied to octocat.',
    category: 'permission_auth',
  },
  {
    family: 'RSpec failure',
    from: 'https://rspec.info/features/3-13/rspec-core/command-line/only-failures/',
    line: '     Failure/Error: expect(user).to be_valid',
    category: 'test_failure',
  },
  {
    family: 'dotnet test failed test',
    from: 'https://learn.microsoft.com/dotnet/core/tools/dotnet-test',
    line: '  Failed Contoso.Tests.CartTests.AddsItem [12 ms]',
    category: 'test_failure',
  },
  {
    family: 'Bazel test summary',
    from: 'https://bazel.build/reference/test-encyclopedia',
    line: '//src/cart:cart_test                                                     FAILED in 3.2s',
    category: 'test_failure',
  },
  {
    family: 'Maven surefire `<<< FAILURE!` verdict',
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/github-cacher/tests/data/integration-test/orig-logs/8267344544.log',
    line: '2022-09-09T09:38:33.9588168Z [ERROR] Tests run: 7, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.215 s <<< FAILURE! - in com.alibaba.ttl3.kotlin.TtlExtensionsTests',
    category: 'test_failure',
  },
  {
    family: "Pester's failed test `[-]`",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/PowerShell/pester%40Pester/failed/555401304.log',
    line: '\u001b[39;49m\u001b[31m\u001b[39;49m\u001b[31m[-] - Running without any params runs all files from the local folder -> Expected and actual values differ!',
    category: 'test_failure',
  },
  {
    family: 'sha256sum: a downloaded source whose checksum does not match',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Lua/martanne%40vis/failed/496555781.log',
    line: 'sha256sum: WARNING: 1 computed checksum did NOT match',
    category: 'dependency_network',
  },
  {
    family: 'SwiftLint finding printed as a warning',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Objective-C/Realm%40realm-cocoa/failed/545920250.log',
    line: '/Users/travis/build/realm/realm-cocoa/Realm/ObjectServerTests/SwiftPermissionsTests.swift:156:13: warning: Redundant Discardable Let Violation: Prefer `_ = foo()` over `let _ = foo()` when discarding a result from a function. (redundant_discardable_let)',
    category: 'compile_error',
  },
  {
    family: 'SwiftLint summary',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Objective-C/Realm%40realm-cocoa/failed/545920250.log',
    line: 'Done linting! Found 1 violation, 0 serious in 48 files.',
    category: 'compile_error',
  },
  {
    family: "pytest's `E` line under a collection error",
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/python/2512030835-orig.log',
    line: '2022-06-16T22:11:49.2442004Z E   SyntaxError: invalid syntax',
    category: 'compile_error',
  },
  {
    family: "Gradle `> Could not resolve project :x` behind fastlane's prefix",
    from: 'https://github.com/xiang2025-coder/myapptest/blob/becaf9d936080e25a5c948d76f7919aad7f006bc/issu.md',
    line: '[07:58:35]: \u25b8 > Could not resolve project :capacitor-android.',
    category: 'dependency_network',
  },
  {
    family: 'a test that crashed Python (pytest)',
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/python/2512083654-orig.log',
    line: '2022-06-16T23:47:04.9311419Z spyder/app/tests/test_mainwindow.py::test_varexp_rename Fatal Python error: Segmentation fault',
    category: 'test_failure',
  },
  {
    family: "Ant's junit verdict",
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/ant/2420748513-orig.log',
    line: '2022-06-01T10:03:40.6806451Z /home/runner/work/CACAO2022/CACAO2022/build.xml:86: Test abstraction.FiliereParDefaultTest failed',
    category: 'test_failure',
  },
  {
    family: 'Spotless format check (Gradle)',
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/gradle/2085562467-orig.log',
    line: '2022-04-03T14:29:35.6052350Z > The following files had format violations:',
    category: 'compile_error',
  },
  {
    family: "a test runner's result table (`| ✖ Failed |`)",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/C%2B%2B/bitcoin%40bitcoin/failed/567204447.log',
    line: '\u001b[0m\u001b[0;31mfeature_segwit.py                      | ✖ Failed  | 12 s',
    category: 'test_failure',
  },
  {
    family: 'javac given a release the JDK does not know (Maven)',
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/maven/1932650872-orig.log',
    line: '2022-03-04T08:20:02.6681075Z [ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.9.0:compile (default-compile) on project spring-boot-admin-server: Fatal error compiling: invalid target release: 17 -> [Help 1]',
    category: 'config_yaml',
  },
  {
    family: "Ant's <get> failing to download",
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/travis_data/build_system_testing/161141427.log',
    line: '      [get] Error getting https://fpdownload.macromedia.com/get/flashplayer/updaters/23/playerglobal23_0.swc to /home/travis/build/jindrapetrik/jpexs-decompiler/flashlib/playerglobal23_0.swc',
    category: 'dependency_network',
  },
  {
    family: 'RuboCop offense (severity letter)',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Ruby/jekyll%40jekyll/failed/565960060.log',
    line: 'lib/jekyll/excerpt.rb:158:17: C: Performance/RegexpMatch: Use match? instead of =~ when MatchData is not used.',
    category: 'compile_error',
  },
  {
    family: 'RuboCop summary',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Ruby/jekyll%40jekyll/failed/565960060.log',
    line: '129 files inspected, 3 offenses detected',
    category: 'compile_error',
  },
  {
    family: 'Maven/Aether could not transfer an artifact',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Clojure/technomancy%40leiningen/failed/239201655.log',
    line: 'Could not transfer artifact clojure-complete:clojure-complete:jar:0.2.4 from/to clojars (https://repo.clojars.org/): Received fatal alert: protocol_version',
    category: 'dependency_network',
  },
  {
    family: 'Erlang compiler error',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Erlang/rabbitmq%40rabbitmq-server/failed/571748388.log',
    line: 'src/rabbit_vhost.erl:91: field description undefined in record vhost',
    category: 'compile_error',
  },
  {
    family: 'mix format --check-formatted',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Elixir/elixir-lang%40elixir/failed/574602754.log',
    line: '\u001b[31m\u001b[1m** (Mix) mix format failed due to --check-formatted.',
    category: 'compile_error',
  },
  {
    family: 'CocoaPods cannot satisfy a pod',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Objective-C/ReactiveCocoa%40ReactiveCocoa/failed/522133183.log',
    line: 'nlNone of your spec sources contain a spec satisfying the dependency: `ReactiveCocoa (= 10.0.0)`.',
    category: 'dependency_network',
  },
  {
    family: 'R CMD check: a required package is not available',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/R/twitter%40AnomalyDetection/failed/45992929.log',
    line: 'Package required but not available: ‘lubridate’',
    category: 'dependency_network',
  },
  {
    family: "a linter's `file:line: CODE message` (tldr-lint)",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Shell/tldr-pages%40tldr/failed/563696877.log',
    line: 'pages/common/mat2.md:3: TLDR004 Command descriptions should end in a period',
    category: 'compile_error',
  },
  {
    family: 'wget refusing a certificate for another host',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Lua/cmusatyalab%40openface/failed/199278645.log',
    line: 'ERROR: no certificate subject alternative name matches',
    category: 'dependency_network',
  },
  {
    family: 'Travis running without a .travis.yml',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/TeX/soulmachine%40leetcode/failed/172062089.log',
    line: '\u001b[0K\u001b[31;1mCould not find .travis.yml, using standard configuration.\u001b[0m',
    category: 'config_yaml',
  },
  {
    family: "a GitHub Action's required input not given",
    from: 'https://github.com/sawayamakouji/slide202507/blob/ea5a75a0ed8d2283905098c84e91675dc47b8d29/error.md',
    line: '2025-07-06T20:58:48.2213810Z Error: Input required and not supplied: parent_folder_id',
    category: 'config_yaml',
  },
  {
    family: "Elixir's uncaught `** (throw)`",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Elixir/h4cc%40awesome-elixir/failed/504854205.log',
    line: '** (throw) "Words not in order \\"exos\\" and \\"ex_lttb\\""',
    category: 'script_error',
  },
  {
    family: 'a plugin built for a newer Java runtime, loaded at run time',
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/jodatime_1837/fail.log',
    line: 'java.lang.UnsupportedClassVersionError: spoon/processing/ProcessorProperties has been compiled by a more recent version of the Java Runtime (class file version 55.0), this version of the Java Runtime only recognizes class file versions up to 52.0',
    category: 'dependency_network',
  },
  {
    family: "Travis's default Ruby build finding no Rakefile",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/CSS/google%40material-design-icons/failed/92806560.log',
    line: 'No Rakefile found (looking for: rakefile, Rakefile, rakefile.rb, Rakefile.rb)',
    category: 'config_yaml',
  },
  {
    family: 'Kotlin compiler error (K1 format)',
    from: 'https://kotlinlang.org/docs/compiler-reference.html',
    line: 'e: /builds/app/src/main/kotlin/Main.kt: (12, 5): Unresolved reference: foo',
    category: 'compile_error',
  },
  {
    family: 'Kotlin compiler error (K2 format)',
    from: 'https://kotlinlang.org/docs/k2-compiler-migration-guide.html',
    line: 'e: file:///builds/app/src/main/kotlin/Main.kt:12:5 Unresolved reference: foo',
    category: 'compile_error',
  },
  {
    family: 'a JVM that cannot reserve its heap',
    from: 'https://docs.oracle.com/en/java/javase/21/troubleshoot/troubleshooting-memory-leaks.html',
    line: 'Could not reserve enough space for object heap',
    category: 'oom_killed',
  },
  {
    family: "Gradle's daemon killed under the build",
    from: 'https://github.com/gradle/gradle/issues/9371 (usually the OOM killer; quoted, but not proof of one)',
    line: 'Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)',
    category: 'oom_killed',
  },
  {
    family: "Composer's solver",
    from: 'https://getcomposer.org/doc/articles/troubleshooting.md',
    line: '  Your requirements could not be resolved to an installable set of packages.',
    category: 'dependency_network',
  },
  {
    family: 'pnpm lock file out of date',
    from: 'https://github.com/ourongxing/chatgpt-vercel/issues/19 (the message as pnpm prints it)',
    line: 'ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with package.json',
    category: 'dependency_network',
  },
  {
    family: 'yarn --frozen-lockfile',
    from: 'https://classic.yarnpkg.com/lang/en/docs/cli/install/#toc-yarn-install-frozen-lockfile',
    line: 'error Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`.',
    category: 'dependency_network',
  },
  {
    family: 'npm ci with a lock file out of sync',
    from: 'https://manpages.ubuntu.com/manpages/noble/en/man1/npm-ci.1.html',
    line: 'npm ERR! `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing.',
    category: 'dependency_network',
  },
  {
    family: 'go.mod needing updates',
    from: 'https://go.dev/ref/mod#go-mod-file-updates',
    line: 'go: updates to go.mod needed; to update it:',
    category: 'dependency_network',
  },
  {
    family: "a Rust crate's native build",
    from: 'https://doc.rust-lang.org/cargo/reference/build-scripts.html',
    line: 'error: failed to run custom build command for `openssl-sys v0.9.80`',
    category: 'dependency_network',
  },
  {
    family: 'pip building a package from source',
    from: 'https://pip.pypa.io/en/stable/topics/dependency-resolution/',
    line: '  × Failed to build installable wheels for some pyproject.toml based projects (psycopg2)',
    category: 'dependency_network',
  },
  {
    family: 'GitLab refusing an artifacts archive over the size limit',
    from: 'https://gitlab.com/gitlab-org/gitlab/-/issues/472984 (the runner message)',
    line: 'ERROR: Uploading artifacts as "archive" to coordinator... 413 Request Entity Too Large  id=4242 responseStatus=413 Request Entity Too Large status=413',
    category: 'config_yaml',
  },
];

describe('rule families on real CI lines', () => {
  it.each(EXCERPTS)('$family', ({ line, category }) => {
    const c = classifyLine(stripCiPrefix(stripAnsi(line)));
    expect(c.kind).toBe('error');
    expect(c.score).toBeGreaterThanOrEqual(80);
    expect(c.category).toBe(category);
    // Without the prefix stripped, anchored rules would miss it; with it, the distiller finds it.
    const d = distillLog(`setup\n${line}\nteardown\n`);
    // (A very long line is kept cut in the middle: compare its start.)
    expect(d.decisive.map((x) => x.text.slice(0, 120))).toContain(
      stripAnsi(line).trim().slice(0, 120),
    );
  });

  it('does not count a compiler warning as the error, unless GCC 14 made it one', () => {
    // https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/rmt-server_standard_x86_64.log
    expect(
      classifyLine(
        stripCiPrefix(
          '[   28s] database.c:852:5: warning: "_MSC_VER" is not defined, evaluates to 0 [-Wundef]',
        ),
      ),
    ).toMatchObject({ kind: 'warning' });
    // GCC 14 turned these into errors (https://gcc.gnu.org/gcc-14/porting_to.html).
    expect(
      classifyLine(
        "conftest.c:12:3: warning: implicit declaration of function 'exit' [-Wimplicit-function-declaration]",
      ),
    ).toMatchObject({ kind: 'error', category: 'compile_error' });
    // shellcheck reports every finding as a warning; in a lint job they are the errors.
    expect(
      classifyLine(
        'ci/run.sh:3:6: warning: Double quote to prevent globbing and word splitting. [SC2086]',
      ),
    ).toMatchObject({ kind: 'error', category: 'compile_error' });
  });

  it("does not count apt's warnings or a compiler's notes as errors", () => {
    // https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/C%23/powershell%40PowerShell/failed/535985298.log
    expect(
      classifyLine(
        stripCiPrefix(
          "W: Failed to fetch https://packagecloud.io/github/git-lfs/ubuntu/dists/trusty/InRelease  The following signatures couldn't be verified because the public key is not available: NO_PUBKEY 6B05F25D762E3157",
        ),
      ),
    ).toMatchObject({ kind: 'warning' });
    // https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/syslog-ng_standard_x86_64.log
    expect(
      classifyLine(
        stripCiPrefix(
          "[   66s] cc1plus: note: unrecognized command-line option '-Wno-inconsistent-missing-override' may have been intended to silence earlier diagnostics",
        ),
      ),
    ).toMatchObject({ kind: 'warning' });
  });

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

  it('reads a pytest failure header and a Maven failure summary as the start of a failing block', () => {
    // pytest: https://github.com/okken/pytest-check/pull/150 (its example output)
    expect(
      classifyLine(
        '_________________________________ test_message _________________________________',
      ),
    ).toMatchObject({ kind: 'summary-header' });
    // Maven surefire: https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/commonslang_2089/fail.log
    const maven = distillLog(
      [
        '[INFO] ',
        '[ERROR] Failures: ',
        '[ERROR]   DurationUtilsTest.testOfConsumer:84->lambda$testOfConsumer$1:84 expected: <true> but was: <false>',
        '[INFO] ',
      ].join('\n'),
    );
    expect(classifyLine('[ERROR] Failures: ')).toMatchObject({ kind: 'summary-header' });
    expect(maven.text).toContain('DurationUtilsTest.testOfConsumer:84');
  });

  it('strips the known CI prefixes and nothing else', () => {
    expect(stripCiPrefix('2022-05-30T09:11:02.8576680Z BUILD FAILED in 14s')).toBe(
      'BUILD FAILED in 14s',
    );
    expect(stripCiPrefix('[  146s] error: Bad exit status')).toBe('error: Bad exit status');
    expect(
      stripCiPrefix(
        '[task 2025-02-13T21:47:57.540Z] 21:47:57    ERROR -  error: linking with `cc` failed',
      ),
    ).toBe(' error: linking with `cc` failed');
    expect(stripCiPrefix('DEBUG util.py:459:  Problem: x')).toBe(' Problem: x');
    expect(stripCiPrefix('    at foo (bar.js:1:2)')).toBe('    at foo (bar.js:1:2)');
    expect(stripCiPrefix('2 passed')).toBe('2 passed');
    // Vercel's build clock (old and new), Netlify's, and BuildKit's plain progress (step number,
    // elapsed seconds): a line's own numbers are left alone.
    expect(stripCiPrefix('13:39:31.418 Failed to compile.')).toBe('Failed to compile.');
    expect(stripCiPrefix('[16:01:19.375] Export encountered an error')).toBe(
      'Export encountered an error',
    );
    expect(stripCiPrefix('7:35:09 AM: Build failed')).toBe('Build failed');
    expect(stripCiPrefix('#8 12.34 npm ERR! code E404')).toBe('npm ERR! code E404');
    expect(stripCiPrefix('#10 ERROR: failed to solve')).toBe('ERROR: failed to solve');
    expect(stripCiPrefix('57:9  Error: x')).toBe('57:9  Error: x');
    expect(stripCiPrefix('1:2 warning')).toBe('1:2 warning');
    expect(stripCiPrefix('#include <stdio.h>')).toBe('#include <stdio.h>');
  });

  it("reads PyYAML's ParserError as configuration and solc's as code", () => {
    // https://pyyaml.org/wiki/PyYAMLDocumentation (errors), https://docs.soliditylang.org/en/latest/using-the-compiler.html
    expect(classifyLine('yaml.parser.ParserError: while parsing a block mapping').category).toBe(
      'config_yaml',
    );
    expect(classifyLine("ParserError (2314): Expected ';' but got '}'").category).toBe(
      'compile_error',
    );
  });

  it("reads Vite's '✗ Build failed in 41.70s' as the build's verdict, not a failing test", () => {
    // https://vite.dev/guide/build: Vite's summary of a failed `vite build`.
    expect(classifyLine('✗ Build failed in 41.70s').category).not.toBe('test_failure');
    expect(classifyLine('  ✗ applies the discount').category).toBe('test_failure');
  });

  it("does not count a hosted build's non-fatal cache miss as a failure", () => {
    // https://github.com/eres2k/aurora-audit-platform/blob/87462da109b40ce68cc402188a140150dd45f809/create-missing-files.sh
    // (a Netlify build log pasted over a script): the build goes on.
    expect(
      classifyLine(stripCiPrefix('10:24:54 PM: Failed to fetch cache, continuing with build')),
    ).toMatchObject({
      kind: 'noise',
    });
  });

  it('keeps the lead-in of the failing step: the GitHub Actions step that ran the failing command', () => {
    const filler = Array.from(
      { length: 2000 },
      (_, i) => `2022-05-30T09:10:${String(i % 60).padStart(2, '0')}.1Z compiling module ${i}`,
    );
    const log = [
      '2022-05-30T09:10:00.0Z ##[group]Run ./gradlew build',
      ...filler,
      '2022-05-30T09:11:02.8576680Z ConsoleClientTest > testClassicParsing() FAILED',
      ...filler.slice(0, 400),
    ].join('\n');
    const d = distillLog(log, { budgetChars: 6000 });
    expect(d.text).toContain('##[group]Run ./gradlew build');
    expect(d.text).toContain('ConsoleClientTest > testClassicParsing() FAILED');
  });

  it('keeps the header of the step that failed when its errors alone would fill the budget', () => {
    // The shape of a flake8 step in
    // https://github.com/harshil753/my_closet/blob/ae756335f4ce01c4dcc1ed897b003ec464ec6a2a/1_python-test.txt:
    // hundreds of findings after `Run flake8`, then the runner's verdict.
    const findings = Array.from(
      { length: 600 },
      (_, i) =>
        `2025-10-12T20:13:17.4633422Z services/image_processor.py:${i + 1}:1: E302 expected 2 blank lines, found 1`,
    );
    const log = [
      '2025-10-12T20:13:10.0000000Z ##[group]Run pytest tests/ || true',
      '2025-10-12T20:13:12.0000000Z no tests ran in 0.01s',
      '2025-10-12T20:13:16.9000000Z ##[group]Run flake8 services/',
      '2025-10-12T20:13:16.9000001Z ##[endgroup]',
      ...findings,
      '2025-10-12T20:13:17.9000000Z ##[error]Process completed with exit code 1.',
    ].join('\n');
    const d = distillLog(log, { budgetChars: 6000 });
    expect(d.text).toContain('##[group]Run flake8 services/');
    expect(d.failingStep).toEqual({ startLine: 3, endLine: findings.length + 5 });
    // The step's header names the failing command (reproduce-it-locally answers quote it).
    expect(d.failingCommand).toBe('flake8 services/');
  });

  it('keeps a log that fits the budget whole, and fills a long one up to the budget', () => {
    const short = ['$ make', 'cc -c a.c', 'a.c:3:1: warning: unused', 'linking', 'done?'].join(
      '\n',
    );
    expect(distillLog(short).text).toBe(short);
    const long = Array.from({ length: 5000 }, (_, i) => `step ${i} ok`).join('\n');
    const d = distillLog(long, { budgetChars: 8000 });
    expect(d.text.length).toBeGreaterThan(7500);
    expect(d.text.length).toBeLessThanOrEqual(8000);
    expect(d.text.endsWith('step 4999 ok')).toBe(true);
  });
});

describe('what changed since the last green run', () => {
  it('masks run-specific parts so the same step compares equal across runs', () => {
    expect(
      lineTemplate(
        '2022-05-30T09:11:02.8576680Z Downloaded /home/runner/.m2/a/b.jar (12 kB at 3.4 MB/s) sha 3f9a2c1d',
      ),
    ).toBe(
      lineTemplate(
        '2022-06-01T10:00:00.1Z Downloaded /home/runner/.m2/c/d.jar (98 kB at 1.1 MB/s) sha 77b0e9aa',
      ),
    );
  });

  it('drops lines the green run printed too, never error lines, and counts them', () => {
    const green = [
      '$ npm test',
      'Downloaded 12 packages in 3.2s',
      'PASS src/a.test.ts (1.1 s)',
      'Error: retrying fetch (1/3)',
      'done',
    ].join('\n');
    const failed = [
      '$ npm test',
      'Downloaded 14 packages in 2.9s',
      'PASS src/a.test.ts (0.9 s)',
      'Error: retrying fetch (1/3)',
      'FAIL src/b.test.ts',
      '  Expected: 1',
      'done',
    ].join('\n');
    const d = distillLog(failed, { baseline: green });
    expect(d.text).not.toContain('Downloaded 14 packages');
    expect(d.text).not.toContain('PASS src/a.test.ts');
    // An error line stays even when the green run printed it as well.
    expect(d.text).toContain('Error: retrying fetch (1/3)');
    expect(d.text).toContain('FAIL src/b.test.ts');
    expect(d.text).toContain('$ npm test');
    expect(d.sameAsGreen).toBe(3);
    expect(distillLog(failed).sameAsGreen).toBeUndefined();
  });
});
