/**
 * Services and platforms a build talks to: databases, Android signing, hosting platforms and their
 * settings.
 */
import { defineFamily } from '../rule.ts';

/** Services and platforms a build talks to. */
export const servicesFamily = defineFamily({
  name: 'services',
  // prettier-ignore
  hints: [
    'fail', 'exception', 'refused', 'not found', "can't", 'missing', 'does not exist', 'timed out',
    'database server', 'keytool', 'signingconfig', 'keystore', 'deploy did not succeed',
    'only supports files up to',
  ],
  rules: {
    // Services and platforms a build talks to, in their documented words: Prisma's P1001/P1002 (the
    // database the build or its prerendering queries cannot be reached,
    // https://www.prisma.io/docs/orm/reference/error-reference#p1001) and libpq's refused
    // connection are the network to a service, not the code; an Android release build whose signing
    // keystore or its password is wrong (`KeytoolException: Failed to read key … from store`,
    // `Keystore was tampered with, or password was incorrect`,
    // https://developer.android.com/studio/publish/app-signing) is a credentials problem.
    'database-unreachable': {
      re: /\bCan't reach database server at\b|\bThe database server at .* was reached but timed out\b|\bconnection to server at "[^"]*" \([^)]*\), port \d+ failed: Connection refused/,
      score: 90,
      kind: 'error',
      category: 'dependency_network',
    },
    'android-signing': {
      re: /\bKeytoolException: Failed to read key\b|\bKeystore was tampered with, or password was incorrect\b|\bkeystore password was incorrect\b|\bSigningConfig "[^"]+" is missing required property "(?:storePassword|keyPassword|keyAlias|storeFile)"/,
      score: 90,
      kind: 'error',
      category: 'permission_auth',
    },
    // A build's own settings pointing at what is not there: BuildKit copying a path missing from
    // the build context (`failed to compute cache key: failed to calculate checksum of ref …:
    // "/app": not found`, https://docs.docker.com/build/concepts/context/), Netlify's publish
    // directory missing after the build
    // (https://docs.netlify.com/configure-builds/troubleshooting-tips/), Cloudflare Pages refusing
    // an output file over its size limit (the output directory holds build caches,
    // https://developers.cloudflare.com/pages/platform/limits/#file-size).
    'platform-settings': {
      re: /\bfailed to (?:compute cache key|calculate checksum of ref)\b.*": not found\b|^\s*Deploy did not succeed: Deploy directory '[^']*' does not exist|\bPages only supports files up to [\d.]+ ?MiB in size\b/,
      score: 90,
      kind: 'error',
      category: 'config_yaml',
    },
  },
  advice: {
    'database-in-build': {
      category: 'dependency_network',
      when: /Can't reach database server|connection to server at .* failed/,
      steps: [
        'The build itself connects to a database (prerendering pages, running migrations or generating data), and the builder cannot reach it: the database is private to your network, paused, or its address in the build environment is wrong.',
        'Either keep the database out of the build (render those pages at request time, run migrations in a deploy step) or let the builder reach it: the connection string set for the build environment, and the database’s allow list.',
      ],
      instead: true,
    },
    'keystore-unreadable': {
      category: 'permission_auth',
      when: /KeytoolException|Keystore was tampered with|keystore password was incorrect/,
      steps: [
        'The Android signing keystore could not be read: the file the job writes from a CI secret is empty or truncated (a secret unset on this branch, or base64 decoded wrongly), or its password or key alias is wrong.',
        'Check that the secret decodes to the keystore (`base64 -d` it and compare the size with your local file) and that the store password, key alias and key password variables match it.',
      ],
      instead: true,
    },
    'path-outside-docker-context': {
      category: 'config_yaml',
      when: /failed to (?:compute cache key|calculate checksum of ref)/,
      steps: [
        'The Dockerfile copies a path that is not in the build context: COPY paths are relative to the context directory (the last argument of `docker build`, or `context:` in compose and CI settings), and `.dockerignore` may exclude it. Fix the path or the context.',
      ],
    },
    'publish-directory-missing': {
      category: 'config_yaml',
      when: /Deploy directory '[^']*' does not exist/,
      steps: [
        'The site’s publish directory does not exist after the build: set it to where the build writes its output (for example `dist` or `build`, relative to the base directory).',
      ],
    },
    'file-over-size-limit': {
      category: 'config_yaml',
      when: /only supports files up to [\d.]+ ?MiB/,
      steps: [
        'A file in the output directory is over the platform’s size limit; it is usually a build cache (webpack’s `cache/`, `.next/cache`): keep caches out of the directory that is uploaded.',
      ],
    },
  },
});
