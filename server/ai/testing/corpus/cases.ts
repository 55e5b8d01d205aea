import type { CorpusCase } from './runner-log.ts';

const E = '\x1b';

/**
 * The failure cores of the distillation corpus, written after real CI failures of each ecosystem.
 * `!!` marks the lines a person would quote to explain the failure.
 */
export const CASES: CorpusCase[] = [
  {
    name: 'jest-assertion',
    ecosystem: 'npm/Jest',
    image: 'node:22-bookworm',
    jobName: 'test:unit',
    script: `
$ npm ci --no-audit --no-fund
{{noise:npm-install:220}}
added 1184 packages in 41s
$ npm test -- --ci --reporters=default
> shop-web@3.4.0 test
> jest --ci --reporters=default
{{noise:jest-pass:160}}
${E}[0m${E}[7m${E}[1m${E}[31m FAIL ${E}[39m${E}[22m${E}[27m${E}[0m ${E}[2msrc/cart/${E}[22m${E}[1mtotals.test.ts${E}[22m
!!  ● cart totals › applies the percentage discount before tax
    expect(received).toBe(expected) // Object.is equality
!!    Expected: 90.45
!!    Received: 100.5
      41 |     const cart = makeCart([item(100.5)], { discount: 0.1 });
      42 |     const totals = computeTotals(cart, { taxRate: 0 });
    > 43 |     expect(totals.grandTotal).toBe(90.45);
         |                               ^
      44 |   });
!!      at Object.<anonymous> (src/cart/totals.test.ts:43:31)
{{noise:jest-pass:80}}
!!Test Suites: 1 failed, 243 passed, 244 total
!!Tests:       1 failed, 1873 passed, 1874 total
Snapshots:   112 passed, 112 total
Time:        84.211 s
Ran all test suites.
`,
  },
  {
    name: 'jest-multiple-failures',
    ecosystem: 'npm/Jest',
    image: 'node:20-alpine',
    jobName: 'test:api',
    script: `
$ npm ci
{{noise:npm-install:150}}
$ npx jest --runInBand
{{noise:jest-pass:120}}
 FAIL  src/orders/orders.service.test.ts
!!  ● OrdersService › createOrder › rejects an order without items
!!    TypeError: Cannot read properties of undefined (reading 'length')
!!      at OrdersService.createOrder (src/orders/orders.service.ts:57:28)
      at Object.<anonymous> (src/orders/orders.service.test.ts:88:20)
  ● OrdersService › createOrder › stores the customer reference
!!    expect(jest.fn()).toHaveBeenCalledWith(...expected)
    Expected: ObjectContaining {"customerRef": "C-100"}
    Number of calls: 0
      at Object.<anonymous> (src/orders/orders.service.test.ts:104:29)
{{noise:jest-pass:60}}
 FAIL  src/invoices/pdf.test.ts
!!  ● invoice pdf › renders the VAT breakdown
!!    thrown: "Exceeded timeout of 5000 ms for a test.
    Add a timeout value to this test to increase the timeout, if this is a long-running test. See https://jestjs.io/docs/api#testname-fn-timeout."
      at src/invoices/pdf.test.ts:12:3
!!Test Suites: 2 failed, 96 passed, 98 total
!!Tests:       3 failed, 702 passed, 705 total
`,
  },
  {
    name: 'npm-eresolve',
    ecosystem: 'npm',
    image: 'node:22',
    jobName: 'install',
    script: `
$ npm ci
{{noise:npm-install:40}}
!!npm error code ERESOLVE
!!npm error ERESOLVE could not resolve
npm error
npm error While resolving: @acme/ui-kit@5.2.0
npm error Found: react@19.0.0
npm error node_modules/react
npm error   react@"^19.0.0" from the root project
npm error
!!npm error Could not resolve dependency:
!!npm error peer react@"^17.0.0 || ^18.0.0" from react-beautiful-dnd@13.1.1
npm error node_modules/react-beautiful-dnd
npm error   react-beautiful-dnd@"^13.1.1" from the root project
npm error
npm error Fix the upstream dependency conflict, or retry
npm error this command with --force or --legacy-peer-deps
npm error to accept an incorrect (and potentially broken) dependency resolution.
npm error A complete log of this run can be found in: /root/.npm/_logs/2024-05-01T10_02_11_333Z-debug-0.log
`,
  },
  {
    name: 'node-heap-oom',
    ecosystem: 'npm/webpack',
    image: 'node:20',
    jobName: 'build:web',
    script: `
$ npm ci
{{noise:npm-install:120}}
$ npm run build
> web@2.0.0 build
> webpack --mode production
{{noise:webpack:200}}
<--- Last few GCs --->
[31:0x6e8c6d0]   312840 ms: Mark-Compact 2035.1 (2083.4) -> 2031.7 (2084.6) MB, 1893.21 / 0.00 ms  (average mu = 0.121, current mu = 0.024) allocation failure; scavenge might not succeed
<--- JS stacktrace --->
!!FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory
 1: 0xb8cf83 node::Abort() [node]
 2: 0xa9c9e6  [node]
 3: 0xd6d23e v8::Utils::ReportOOMFailure(v8::internal::Isolate*, char const*, v8::OOMDetails const&) [node]
!!Aborted (core dumped)
npm error code 134
npm error path /builds/acme/web
npm error command failed
npm error command sh -c webpack --mode production
`,
    verdict: 'ERROR: Job failed: exit code 134',
  },
  {
    name: 'tsc-compile-errors',
    ecosystem: 'TypeScript',
    image: 'node:22',
    jobName: 'typecheck',
    script: `
$ npm ci
{{noise:npm-install:160}}
$ npx tsc -p tsconfig.json --noEmit
!!src/billing/invoice.ts(88,7): error TS2322: Type 'string | undefined' is not assignable to type 'string'.
  Type 'undefined' is not assignable to type 'string'.
!!src/billing/invoice.ts(131,19): error TS2339: Property 'vatRate' does not exist on type 'Customer'.
!!src/api/routes/orders.ts(12,10): error TS2305: Module '"../../billing/invoice"' has no exported member 'renderInvoice'.
!!Found 3 errors in 2 files.
Errors  Files
     2  src/billing/invoice.ts:88
     1  src/api/routes/orders.ts:12
`,
    verdict: 'ERROR: Job failed: exit code 2',
  },
  {
    name: 'eslint-errors',
    ecosystem: 'npm/ESLint',
    image: 'node:22',
    jobName: 'lint',
    script: `
$ npm ci
{{noise:npm-install:140}}
$ npx eslint . --max-warnings 0
/builds/acme/web/src/app/layout.tsx
  14:7  warning  'unused' is assigned a value but never used  @typescript-eslint/no-unused-vars
/builds/acme/web/src/cart/useCart.ts
!!  31:5  error  React Hook useEffect has a missing dependency: 'items'. Either include it or remove the dependency array  react-hooks/exhaustive-deps
!!  58:12  error  Unexpected any. Specify a different type  @typescript-eslint/no-explicit-any
!!✖ 3 problems (2 errors, 1 warning)
ESLint found too many warnings (maximum: 0).
`,
  },
  {
    name: 'pytest-assertion',
    ecosystem: 'Python/pytest',
    image: 'python:3.12',
    jobName: 'test',
    script: `
$ pip install -r requirements-dev.txt
{{noise:progress:30}}
Successfully installed Django-5.0.4 pytest-8.1.1 pytest-django-4.8.0 factory-boy-3.3.0
$ pytest -q --junitxml=reports/junit.xml
{{noise:pytest-pass:400}}
=================================== FAILURES ===================================
___________________ test_refund_is_capped_at_captured_amount ___________________
    def test_refund_is_capped_at_captured_amount(payment):
        payment.capture(Decimal("40.00"))
        refund = payment.refund(Decimal("55.00"))
>       assert refund.amount == Decimal("40.00")
!!E       AssertionError: assert Decimal('55.00') == Decimal('40.00')
!!E        +  where Decimal('55.00') = <Refund: R-1029>.amount
!!tests/test_payments.py:211: AssertionError
=========================== short test summary info ============================
!!FAILED tests/test_payments.py::test_refund_is_capped_at_captured_amount - AssertionError: assert Decimal('55.00') == Decimal('40.00')
!!1 failed, 399 passed, 3 skipped in 48.12s
`,
  },
  {
    name: 'pytest-collection-import',
    ecosystem: 'Python/pytest',
    image: 'python:3.11-slim',
    jobName: 'test:py311',
    script: `
$ pip install -e .[test]
{{noise:progress:20}}
$ pytest
============================= test session starts ==============================
platform linux -- Python 3.11.9, pytest-8.2.0, pluggy-1.5.0
rootdir: /builds/acme/etl
collected 212 items / 1 error
==================================== ERRORS ====================================
______________ ERROR collecting tests/loaders/test_parquet.py _______________
ImportError while importing test module '/builds/acme/etl/tests/loaders/test_parquet.py'.
Traceback:
/usr/local/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/loaders/test_parquet.py:3: in <module>
    from etl.loaders.parquet import ParquetLoader
etl/loaders/parquet.py:1: in <module>
    import pyarrow as pa
!!E   ModuleNotFoundError: No module named 'pyarrow'
=========================== short test summary info ============================
!!ERROR tests/loaders/test_parquet.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
`,
    verdict: 'ERROR: Job failed: exit code 2',
  },
  {
    name: 'pip-no-matching-distribution',
    ecosystem: 'Python/pip',
    image: 'python:3.13',
    jobName: 'build',
    script: `
$ pip install -r requirements.txt
{{noise:progress:60}}
Collecting numpy==1.24.4 (from -r requirements.txt (line 4))
  Downloading numpy-1.24.4.tar.gz (10.9 MB)
!!ERROR: Ignored the following versions that require a different python version: 1.21.2 Requires-Python >=3.7,<3.11
!!ERROR: Could not find a version that satisfies the requirement tensorflow==2.15.0 (from versions: 2.16.1, 2.16.2, 2.17.0)
!!ERROR: No matching distribution found for tensorflow==2.15.0
`,
  },
  {
    name: 'python-deploy-traceback',
    ecosystem: 'Python/script',
    image: 'python:3.12-slim',
    jobName: 'deploy:staging',
    script: `
$ python scripts/deploy.py --env staging
{{noise:app-log:300}}
!!Traceback (most recent call last):
  File "/builds/acme/ops/scripts/deploy.py", line 142, in <module>
    main()
  File "/builds/acme/ops/scripts/deploy.py", line 131, in main
    release = build_release(config, args.env)
!!  File "/builds/acme/ops/scripts/deploy.py", line 77, in build_release
    image = config["images"][env]["tag"]
            ~~~~~~~~~~~~~~~~^^^^^
!!KeyError: 'staging'
`,
  },
  {
    name: 'go-test-fail',
    ecosystem: 'Go',
    image: 'golang:1.22',
    jobName: 'test:go',
    script: `
$ go test ./... -race -count=1
{{noise:go-ok:300}}
=== RUN   TestRateLimiter_Burst
!!    limiter_test.go:58: allowed 12 requests in burst, want 10
!!--- FAIL: TestRateLimiter_Burst (0.02s)
{{noise:go-ok:30}}
FAIL
!!FAIL	gitlab.example.com/acme/api/internal/ratelimit	1.204s
{{noise:go-ok:60}}
FAIL
`,
  },
  {
    name: 'go-build-undefined',
    ecosystem: 'Go',
    image: 'golang:1.23-alpine',
    jobName: 'build:go',
    script: `
$ go build ./...
!!# gitlab.example.com/acme/api/internal/billing
!!internal/billing/charge.go:44:9: undefined: stripe.NewPaymentIntent
!!internal/billing/charge.go:61:21: cannot use amount (variable of type int) as int64 value in struct literal
`,
  },
  {
    name: 'go-mod-proxy-timeout',
    ecosystem: 'Go',
    image: 'golang:1.22',
    jobName: 'lint:go',
    script: `
$ go mod download
!!go: github.com/aws/aws-sdk-go-v2@v1.26.1: Get "https://proxy.golang.org/github.com/aws/aws-sdk-go-v2/@v/v1.26.1.zip": dial tcp 142.250.74.81:443: i/o timeout
`,
  },
  {
    name: 'maven-surefire-failure',
    ecosystem: 'Java/Maven',
    image: 'maven:3.9-eclipse-temurin-21',
    jobName: 'test:java',
    script: `
$ mvn -B verify
{{noise:maven-download:300}}
{{noise:maven-tests:80}}
[INFO] Running com.acme.orders.OrderServiceTest
!![ERROR] Tests run: 14, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 2.331 s <<< FAILURE! -- in com.acme.orders.OrderServiceTest
!![ERROR] com.acme.orders.OrderServiceTest.cancelReleasesStock -- Time elapsed: 0.112 s <<< FAILURE!
!!org.opentest4j.AssertionFailedError: expected: <5> but was: <4>
	at org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
	at org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:150)
!!	at com.acme.orders.OrderServiceTest.cancelReleasesStock(OrderServiceTest.java:97)
{{noise:maven-tests:20}}
[INFO] Results:
[ERROR] Failures:
!![ERROR]   OrderServiceTest.cancelReleasesStock:97 expected: <5> but was: <4>
!![ERROR] Tests run: 412, Failures: 1, Errors: 0, Skipped: 2
[INFO] BUILD FAILURE
!![ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project orders: There are test failures.
`,
  },
  {
    name: 'maven-compile-error',
    ecosystem: 'Java/Maven',
    image: 'maven:3.9-eclipse-temurin-17',
    jobName: 'build:java',
    script: `
$ mvn -B -DskipTests package
{{noise:maven-download:400}}
[INFO] --- compiler:3.13.0:compile (default-compile) @ inventory ---
[INFO] Compiling 214 source files with javac [debug release 17] to target/classes
[INFO] -------------------------------------------------------------
!![ERROR] COMPILATION ERROR :
[INFO] -------------------------------------------------------------
!![ERROR] /builds/acme/inventory/src/main/java/com/acme/inventory/StockService.java:[58,25] cannot find symbol
  symbol:   method reserve(com.acme.inventory.Sku,int)
  location: variable repository of type com.acme.inventory.StockRepository
[INFO] 1 error
[INFO] BUILD FAILURE
!![ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile) on project inventory: Compilation failure
`,
  },
  {
    name: 'maven-nexus-unauthorized',
    ecosystem: 'Java/Maven',
    image: 'maven:3.9-eclipse-temurin-21',
    jobName: 'package',
    script: `
$ mvn -B -s ci_settings.xml deploy
{{noise:maven-download:200}}
[INFO] BUILD FAILURE
!![ERROR] Failed to execute goal on project payments: Could not resolve dependencies for project com.acme:payments:jar:2.3.0-SNAPSHOT
!![ERROR] dependency: com.acme:common-crypto:jar:1.8.0 (compile)
!![ERROR] 	Could not transfer artifact com.acme:common-crypto:jar:1.8.0 from/to nexus (https://nexus.acme.example/repository/maven-releases/): status code: 401, reason phrase: Unauthorized (401)
`,
  },
  {
    name: 'gradle-test-failure',
    ecosystem: 'Java/Gradle',
    image: 'gradle:8.7-jdk21',
    jobName: 'test:gradle',
    script: `
$ ./gradlew test --no-daemon
{{noise:gradle-tasks:150}}
> Task :app:test
!!PricingEngineTest > appliesBulkDiscount() FAILED
!!    java.lang.IllegalStateException: No price list for region EU-WEST
        at com.acme.pricing.PricingEngine.priceFor(PricingEngine.kt:42)
        at com.acme.pricing.PricingEngineTest.appliesBulkDiscount(PricingEngineTest.kt:31)
!!        Caused by: java.util.NoSuchElementException: Key EU-WEST is missing in the map.
            at kotlin.collections.MapsKt__MapWithDefaultKt.getOrImplicitDefaultNullable(MapWithDefault.kt:24)
!!212 tests completed, 1 failed
> Task :app:test FAILED
!!FAILURE: Build failed with an exception.
* What went wrong:
!!Execution failed for task ':app:test'.
> There were failing tests. See the report at: file:///builds/acme/pricing/app/build/reports/tests/test/index.html
* Try:
> Run with --scan to get full insights.
BUILD FAILED in 3m 12s
`,
  },
  {
    name: 'gradle-daemon-oom',
    ecosystem: 'Java/Gradle',
    image: 'gradle:8.7-jdk17',
    jobName: 'assemble',
    script: `
$ ./gradlew assembleRelease
{{noise:gradle-tasks:250}}
> Task :app:mergeReleaseResources
!!Exception in thread "Daemon worker" java.lang.OutOfMemoryError: Java heap space
	at java.base/java.util.Arrays.copyOf(Arrays.java:3537)
!!FAILURE: Build failed with an exception.
* What went wrong:
!!Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)
BUILD FAILED in 7m 41s
`,
  },
  {
    name: 'rust-mismatched-types',
    ecosystem: 'Rust',
    image: 'rust:1.78',
    jobName: 'build:rust',
    script: `
$ cargo build --locked --release
    Updating crates.io index
{{noise:cargo-compiling:180}}
   Compiling ledger v0.4.0 (/builds/acme/ledger)
!!error[E0308]: mismatched types
!!  --> src/posting.rs:57:24
   |
57 |         amount_cents: entry.amount,
   |                       ^^^^^^^^^^^^ expected \`i64\`, found \`Decimal\`
!!error: could not compile \`ledger\` (lib) due to 1 previous error
`,
    verdict: 'ERROR: Job failed: exit code 101',
  },
  {
    name: 'rust-test-panic',
    ecosystem: 'Rust',
    image: 'rust:1.79',
    jobName: 'test:rust',
    script: `
$ cargo test --workspace
{{noise:cargo-compiling:120}}
running 184 tests
{{noise:cargo-tests:183}}
test parser::tests::rejects_trailing_comma ... FAILED
failures:
---- parser::tests::rejects_trailing_comma stdout ----
!!thread 'parser::tests::rejects_trailing_comma' panicked at src/parser.rs:311:9:
!!assertion \`left == right\` failed
  left: Ok([1, 2])
 right: Err(TrailingComma { pos: 5 })
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace
failures:
    parser::tests::rejects_trailing_comma
!!test result: FAILED. 183 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.41s
!!error: test failed, to rerun pass \`--lib\`
`,
    verdict: 'ERROR: Job failed: exit code 101',
  },
  {
    name: 'docker-copy-not-found',
    ecosystem: 'Docker',
    image: 'docker:26',
    jobName: 'docker:build',
    script: `
$ docker build -t $CI_REGISTRY_IMAGE:$CI_COMMIT_SHA .
#0 building with "default" instance using docker driver
#1 [internal] load build definition from Dockerfile
#1 transferring dockerfile: 812B done
{{noise:docker-steps:250}}
#14 [build 6/9] COPY package.json yarn.lock ./
!!#14 ERROR: failed to calculate checksum of ref 4c1a0c2e::v1y0s8: "/yarn.lock": not found
------
 > [build 6/9] COPY package.json yarn.lock ./:
------
Dockerfile:11
--------------------
  11 | >>> COPY package.json yarn.lock ./
--------------------
!!ERROR: failed to solve: failed to compute cache key: failed to calculate checksum of ref 4c1a0c2e::v1y0s8: "/yarn.lock": not found
`,
  },
  {
    name: 'docker-push-denied',
    ecosystem: 'Docker',
    image: 'docker:26',
    jobName: 'docker:push',
    script: `
$ docker login -u "$REGISTRY_USER" -p "$REGISTRY_PASSWORD" registry.acme.example
!!Error response from daemon: Get "https://registry.acme.example/v2/": unauthorized: HTTP Basic: Access denied. The provided password or token is incorrect or your account has 2FA enabled
`,
  },
  {
    name: 'docker-apt-dns',
    ecosystem: 'Docker/apt',
    image: 'docker:26',
    jobName: 'image:base',
    script: `
$ docker build -f docker/base.Dockerfile -t base:ci .
{{noise:docker-steps:60}}
#6 [2/5] RUN apt-get update && apt-get install -y --no-install-recommends libpq5 curl
!!#6 0.421 Err:1 http://deb.debian.org/debian bookworm InRelease
!!#6 0.421   Temporary failure resolving 'deb.debian.org'
#6 0.433 Reading package lists...
!!#6 0.452 E: Unable to locate package libpq5
!!#6 ERROR: process "/bin/sh -c apt-get update && apt-get install -y --no-install-recommends libpq5 curl" did not complete successfully: exit code: 100
`,
  },
  {
    name: 'shell-command-not-found',
    ecosystem: 'shell',
    image: 'alpine:3.19',
    jobName: 'deploy:prod',
    script: `
$ apk add --no-cache bash curl
{{noise:apt:40}}
$ ./scripts/deploy.sh production
Deploying release 2024.05.01-3 to production
!!./scripts/deploy.sh: line 23: kubectl: command not found
`,
    verdict: 'ERROR: Job failed: exit code 127',
  },
  {
    name: 'shell-curl-404',
    ecosystem: 'shell',
    image: 'curlimages/curl:8.7.1',
    jobName: 'smoke',
    script: `
$ curl --fail --retry 3 -sS "$STAGING_URL/healthz"
!!curl: (22) The requested URL returned error: 404
`,
    verdict: 'ERROR: Job failed: exit code 22',
  },
  {
    name: 'git-auth-failure',
    ecosystem: 'git/runner',
    image: 'alpine:3.19',
    jobName: 'build',
    script: '',
    getSourcesFailure: `
Fetching changes with git depth set to 20...
!!remote: HTTP Basic: Access denied. The provided password or token is incorrect or your account has 2FA enabled and you must use a personal access token instead of a password.
!!fatal: Authentication failed for 'https://gitlab.example.com/acme/shared-config.git/'
`,
  },
  {
    name: 'job-timeout',
    ecosystem: 'runner timeout',
    image: 'node:22',
    jobName: 'test:e2e',
    diesInScript: true,
    script: `
$ npx playwright test
Running 312 tests using 2 workers
{{noise:cypress:250}}
!!  ✘  87 [chromium] › checkout.spec.ts:44:5 › checkout › pays with a saved card (30.0s)
!!    Error: page.waitForURL: Timeout 30000ms exceeded.
{{noise:cypress:40}}
`,
    verdict: 'ERROR: Job failed: execution took longer than 1h0m0s seconds',
  },
  {
    name: 'k8s-oomkilled',
    ecosystem: 'Kubernetes executor',
    image: 'python:3.12',
    jobName: 'train:model',
    diesInScript: true,
    script: `
$ python train.py --epochs 20
{{noise:app-log:200}}
Epoch 7/20: loading shard 41 of 64
!!Killed
`,
    verdict: 'ERROR: Job failed: command terminated with exit code 137',
  },
  {
    name: 'helm-yaml-error',
    ecosystem: 'Helm/YAML',
    image: 'alpine/helm:3.14',
    jobName: 'deploy:helm',
    script: `
$ helm lint charts/api
==> Linting charts/api
!![ERROR] templates/deployment.yaml: unable to parse YAML: error converting YAML to JSON: yaml: line 38: mapping values are not allowed in this context
Error: 1 chart(s) linted, 1 chart(s) failed
`,
  },
  {
    name: 'terraform-invalid-reference',
    ecosystem: 'Terraform',
    image: 'hashicorp/terraform:1.8',
    jobName: 'plan',
    script: `
$ terraform init -input=false
Initializing the backend...
Initializing provider plugins...
- Using previously-installed hashicorp/aws v5.46.0
Terraform has been successfully initialized!
$ terraform plan -input=false -out=plan.tfplan
{{noise:tf-refresh:200}}
╷
!!│ Error: Reference to undeclared resource
│
!!│   on modules/queue/main.tf line 27, in resource "aws_sqs_queue_policy" "events":
│   27:   queue_url = aws_sqs_queue.event.id
│
│ A managed resource "aws_sqs_queue" "event" has not been declared in module.queue.
╵
`,
  },
  {
    name: 'rspec-failure',
    ecosystem: 'Ruby/RSpec',
    image: 'ruby:3.3',
    jobName: 'rspec',
    script: `
$ bundle exec rspec
{{noise:rspec:300}}
Failures:
!!  1) Subscriptions::Renew charges the stored card
!!     Failure/Error: expect(charge.status).to eq("succeeded")
       expected: "succeeded"
            got: "requires_action"
       (compared using ==)
!!     # ./spec/services/subscriptions/renew_spec.rb:33:in \`block (2 levels) in <top (required)>'
Finished in 2 minutes 3 seconds (files took 4.21 seconds to load)
!!1204 examples, 1 failure
Failed examples:
!!rspec ./spec/services/subscriptions/renew_spec.rb:28 # Subscriptions::Renew charges the stored card
`,
  },
  {
    name: 'dotnet-build-error',
    ecosystem: '.NET',
    image: 'mcr.microsoft.com/dotnet/sdk:8.0',
    jobName: 'build:dotnet',
    script: `
$ dotnet build -c Release
  Determining projects to restore...
{{noise:dotnet-restore:60}}
!!/builds/acme/shop/src/Checkout/CartController.cs(42,17): error CS0103: The name 'discountService' does not exist in the current context [/builds/acme/shop/src/Checkout/Checkout.csproj]
Build FAILED.
!!    1 Error(s)
    0 Warning(s)
`,
  },
  {
    name: 'cpp-segfault',
    ecosystem: 'C++/make',
    image: 'gcc:14',
    jobName: 'test:native',
    script: `
$ make -j2 test
{{noise:make-cc:150}}
./build/unit_tests
[==========] Running 96 tests from 12 test suites.
[ RUN      ] RingBufferTest.WrapsAround
!!Segmentation fault (core dumped)
!!make: *** [Makefile:41: test] Error 139
`,
    verdict: 'ERROR: Job failed: exit code 2',
  },
  {
    name: 'cypress-element-timeout',
    ecosystem: 'Cypress',
    image: 'cypress/included:13.8.1',
    jobName: 'e2e',
    script: `
$ npx cypress run --browser chrome
{{noise:cypress:200}}
  1) Login
       redirects to the dashboard after sign-in:
!!     AssertionError: Timed out retrying after 4000ms: Expected to find element: \`[data-test=dashboard-title]\`, but never found it.
!!      at Context.eval (webpack://app/./cypress/e2e/login.cy.ts:18:9)
!!  1 failing
`,
  },
  {
    name: 'npm-registry-econnreset',
    ecosystem: 'npm',
    image: 'node:18',
    jobName: 'install:legacy',
    script: `
$ npm ci --prefer-offline
{{noise:npm-install:60}}
npm warn tarball tarball data for typescript@5.4.5 seems to be corrupted. Trying again.
!!npm error code ECONNRESET
!!npm error network request to https://registry.npmjs.org/@babel%2fcore failed, reason: read ECONNRESET
npm error network This is a problem related to network connectivity.
npm error network In most cases you are behind a proxy or have bad network settings.
`,
  },
  {
    name: 'permission-denied-script',
    ecosystem: 'shell',
    image: 'ubuntu:24.04',
    jobName: 'release',
    script: `
$ ./build/release.sh
!!/usr/bin/bash: line 152: ./build/release.sh: Permission denied
`,
    verdict: 'ERROR: Job failed: exit code 126',
  },
  {
    name: 'docker-compose-yaml',
    ecosystem: 'Docker Compose/YAML',
    image: 'docker:26',
    jobName: 'integration',
    script: `
$ docker compose -f docker-compose.ci.yml up -d
!!yaml: line 17: did not find expected key
`,
  },
];
