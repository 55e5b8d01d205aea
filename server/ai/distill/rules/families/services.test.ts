import { describe } from 'vitest';
import { itGivesFamilyAdvice } from '../../../testing/documented-lines.ts';
import { itClassifiesFamilyLines, type RuleCase } from '../rule-tester.ts';
import { servicesFamily } from './services.ts';

/** Lines quoted from public CI logs (`from`), prefixes included. */
const QUOTED: RuleCase[] = [
  {
    what: 'an Android release signing config whose secret was empty',
    from: 'https://github.com/Xed-Editor/Xed-Editor/blob/26ccf049be567a5852b017ad9184bd4824da220d/job-logs.txt',
    line: '2026-06-26T17:27:31.4584482Z    > SigningConfig "release" is missing required property "storePassword".',
    rule: 'services/android-signing',
    category: 'permission_auth',
  },
  {
    what: "Prisma's P1001 behind Vercel's build-time prefix: the database the build needs is unreachable",
    from: 'https://github.com/pgtipping/Synthalyst/blob/c61d304ebbda13bb4ff7a6cbb21f525aa34f5e6a/docs/vercelLogs.md',
    line: "[16:01:19.372] Can't reach database server at `ep-noisy-mountain-a4gl2bkt-pooler.us-east-1.aws.neon.tech:5432`",
    rule: 'services/database-unreachable',
    category: 'dependency_network',
  },
  {
    what: 'an Android release build that cannot read its signing keystore',
    from: 'https://github.com/fuxue-linkong/Radio-area-partition-query/blob/d6b884f31681733fcf9f8992960f233c39c8d5b0/0_build.txt',
    line: '2026-06-19T15:30:30.6693420Z    > com.android.ide.common.signing.KeytoolException: Failed to read key *** from store "/home/runner/work/Radio-area-partition-query/Radio-area-partition-query/signing/release.keystore": not enough content',
    rule: 'services/android-signing',
    category: 'permission_auth',
  },
  {
    what: "BuildKit copying a path missing from the build context, behind BuildKit's step prefix",
    from: 'https://github.com/ozean-licht/ozean-licht/blob/67437b877c30eafa6cd439f2565b7c74bad57e1b/apps/storybook/docs/reports/deploy-debug-log-v4.md',
    line: '#10 ERROR: failed to calculate checksum of ref 85b54d85-a7b8-40e3-85e5-b96f5eb0ecb6::m5f4dh1o9bwabzsy5scrai05i: "/apps/storybook": not found',
    rule: 'services/platform-settings',
    category: 'config_yaml',
  },
  {
    what: "Netlify's publish directory missing after the build, behind Netlify's clock prefix",
    from: 'https://github.com/priorprotocol/prior-protocol-testnet/blob/3544dc030fee48647da4f73192a8b8e28a3ef0a1/attached_assets/Pasted-7-34-37-AM-build-image-version-305a433542175847ae19d9789b7bf59fd8b9de02-noble-7-34-37-AM-buildb-1745131088518.txt',
    line: "7:35:09 AM:   Deploy did not succeed: Deploy directory 'client/dist' does not exist",
    rule: 'services/platform-settings',
    category: 'config_yaml',
  },
  {
    what: "Cloudflare Pages refusing an output file over its size limit (wrangler's ✘ [ERROR] is not esbuild's)",
    from: 'https://github.com/cnmzsjbz199328/businessService/blob/f515fe04ed25746b805b34f851105bbac311a0f6/log.md',
    line: '2025-04-29T02:58:11.47021Z\t\u001b[31m✘ \u001b[41;31m[\u001b[41;97mERROR\u001b[41;31m]\u001b[0m \u001b[1mError: Pages only supports files up to 25 MiB in size\u001b[0m',
    rule: 'services/platform-settings',
    category: 'config_yaml',
  },
];

describe('services rules', () => {
  itClassifiesFamilyLines(servicesFamily, { quoted: QUOTED });
});

describe('services advice', () => {
  itGivesFamilyAdvice(servicesFamily, QUOTED, [
    {
      advice: 'services/database-in-build',
      what: "Prisma's P1001 behind Vercel's build-time prefix: the database the build needs is unreachable",
    },
    {
      advice: 'services/keystore-unreadable',
      what: 'an Android release build that cannot read its signing keystore',
    },
    {
      advice: 'services/path-outside-docker-context',
      what: "BuildKit copying a path missing from the build context, behind BuildKit's step prefix",
    },
    {
      advice: 'services/publish-directory-missing',
      what: "Netlify's publish directory missing after the build, behind Netlify's clock prefix",
    },
    {
      advice: 'services/file-over-size-limit',
      what: "Cloudflare Pages refusing an output file over its size limit (wrangler's ✘ [ERROR] is not esbuild's)",
    },
  ]);
});
