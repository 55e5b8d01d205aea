// doctor's secret-store check with a real Secret Service (scripts/test-all.sh runs this inside a
// private D-Bus session with gnome-keyring): a probe written by the doctor is read back by a fresh
// process of the same binary, and removed again.
import { describe, expect, it } from 'vitest';
import { keychainService } from '../../server/platform/paths.ts';
import {
  readSecretServiceSecret,
  sessionBusPath,
} from '../../server/platform/secret-service-reader.ts';
import { runCli } from '../oauth/testing/cli-bundle.ts';
import { useTokenTestBed } from '../oauth/testing/token-test-bed.ts';

const bed = useTokenTestBed({ bundle: true, keychain: { accounts: [] } });

describe('doctor with the OS keychain', () => {
  it('a secret written by doctor is read back by a fresh process, then removed', async () => {
    const run = await runCli(
      bed.bundle.pipelineSummary,
      ['doctor', '--store', 'keychain', '--json', '--skip', 'gitlab-token'],
      {
        env: {
          PIPELINE_SUMMARY_HOME: bed.home,
          DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS!,
        },
      },
    );
    const report = JSON.parse(run.stdout) as {
      checks: { id: string; status: string; summary: string }[];
    };
    expect(report.checks.find((c) => c.id === 'secret-store')).toEqual({
      id: 'secret-store',
      status: 'pass',
      summary:
        'secret store OS keychain (Secret Service keyring): a secret written here was read back by a fresh process',
    });
    // Nothing of the probe is left in the keyring (its account is random: search by service).
    const bus = sessionBusPath(process.env)!;
    expect(
      await readSecretServiceSecret(bus, {
        service: keychainService(bed.home, { PIPELINE_SUMMARY_HOME: bed.home }),
      }),
    ).toBeUndefined();
  });
});
