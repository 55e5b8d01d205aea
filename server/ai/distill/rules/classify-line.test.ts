import { describe, expect, it } from 'vitest';
import { classifyLine } from './classify-line.ts';
import { stripCiPrefix } from '../ci-prefix.ts';

describe('classifyLine: lookalikes of errors', () => {
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

  it("does not count a hosted build's non-fatal cache miss as a failure", () => {
    // https://github.com/eres2k/aurora-audit-platform/blob/87462da109b40ce68cc402188a140150dd45f809/create-missing-files.sh
    // (a Netlify build log pasted over a script): the build goes on.
    expect(
      classifyLine(stripCiPrefix('10:24:54 PM: Failed to fetch cache, continuing with build')),
    ).toMatchObject({
      kind: 'noise',
    });
  });
});
