/**
 * The machine the job runs on: memory, disk, processes, files another process holds, user
 * namespaces.
 */
import { defineFamily } from '../rule.ts';

/** The machine the job runs on. */
export const DISK_FULL = /No space left on device|\bENOSPC\b|[Dd]isk quota exceeded/;

/** The machine the job runs on. */
export const machineFamily = defineFamily({
  name: 'machine',
  // prettier-ignore
  hints: [
    'err', 'fatal', 'exit', 'killed', 'memory', 'oom', 'cannot', 'could not', 'expected', 'signal',
    'unexpected', 'terminated', 'exceeded', 'no space left', 'enospc', 'quota exceeded',
    'bad_alloc', 'reserve enough space', 'daemon disappeared', 'ids available', 'uids or gids',
    'subuid ranges',
  ],
  rules: {
    // MSBuild unable to copy a build output, usually because a running process holds the file
    // (`error MSB3021: Unable to copy file "…" to "…"`, MSB3026/MSB3027 after retrying,
    // https://learn.microsoft.com/visualstudio/msbuild/errors/msb3021): the build machine's state,
    // not the code.
    'file-in-use': {
      re: /\berror MSB30(?:21|26|27): /,
      score: 88,
      kind: 'error',
      category: 'script_error',
    },
    // Rootless containers (podman, buildah) whose user has too few subordinate IDs for the image's
    // files: /etc/subuid and /etc/subgid need a range for the user
    // (https://github.com/containers/podman/blob/main/troubleshooting.md, "there might not be
    // enough IDs available in the namespace").
    'subordinate-ids': {
      re: /\bthere might not be enough IDs available in the namespace\b|\bpotentially insufficient UIDs or GIDs available in user namespace\b|\bno subuid ranges found for user\b/,
      score: 90,
      kind: 'error',
      category: 'config_yaml',
    },
    // A full disk explains every failure after it.
    'disk-full': {
      re: DISK_FULL,
      score: 93,
      kind: 'error',
      category: 'script_error',
    },
    // A JVM that cannot get the heap it was told to use, and Gradle's daemon dying under it.
    'jvm-heap': {
      re: /Could not reserve enough space for (?:object heap|\d+KB object heap)|Gradle build daemon disappeared unexpectedly/,
      score: 96,
      kind: 'error',
      category: 'oom_killed',
    },
    // Memory and kills: the compiler driver losing cc1plus to the kernel's OOM killer, C++
    // allocation failure.
    'compiler-killed': {
      re: /\bfatal error: Killed signal terminated program\b|\bstd::bad_alloc\b/,
      score: 96,
      kind: 'error',
      category: 'oom_killed',
    },
    // Memory and kills.
    'out-of-memory': {
      re: /\b(?:OOMKilled|oom[-_ ]kill(?:ed|er)?|out of memory|Cannot allocate memory|JavaScript heap out of memory|MemoryError\b|java\.lang\.OutOfMemoryError|GC overhead limit exceeded|exit code 137|exit status 137|Killed\s*$|\bKilled process\b|memory limit)/i,
      score: 96,
      kind: 'error',
      category: 'oom_killed',
    },
    // The shell reporting that it lost a child to SIGKILL (`bash: line 12:  4242 Killed   npm run
    // build`).
    'child-killed': {
      re: /(?:^|: )\s*\d+ Killed {2,}\S/,
      score: 96,
      kind: 'error',
      category: 'oom_killed',
    },
  },
});
