import { describe, expect, it } from 'vitest';
import { sameActivity } from './activity.ts';

// One activity: the same words, numbers, ids and the names of things aside.
const SAME: [string, string][] = [
  ['[api] retrying request 3 after 1500ms', '[web] retrying request 4 after 2000ms'],
  [
    '    console.log  [2026-11-26T16:19:19.000Z] dark_mode: retrying request 36 after 435ms',
    '    console.log  [2026-11-26T16:19:20.000Z] cart_drawer: retrying request 38 after 253ms',
  ],
  [
    'tf-random                        > [3 of 4] Compiling System.Random.TF',
    'tf-random                        > [4 of 4] Compiling System.Random.TF.Instances',
  ],
  ['[functoria: git] Command started', '[cppo: http] Command started'],
  [
    'ATLAS instance i-025e736b648b07a10 is now in unhealthy state.',
    'ATLAS instance i-0f2c3b5a9d1e77b01 is now in unhealthy state.',
  ],
  [
    'test_VideomoreVideo_1 (test.test_download.TestDownload) ... ERROR',
    'test_Viddler_3 (test.test_download.TestDownload) ... ERROR',
  ],
  ['payments: waiting for lock', 'orders: waiting for lock'],
  [
    '[astring.0.8.2] http://erratique.ch/software/astring/releases/astring-0.8.2.tbz downloaded',
    '[fmt.0.8.0] http://erratique.ch/software/fmt/releases/fmt-0.8.0.tbz downloaded',
  ],
  ['step_a: ok', 'step_b: ok'],
];

// Two activities: another verb, another outcome, another shape, or nothing in common to name it.
const OTHER: [string, string][] = [
  ['Opening socket connection to server', 'Socket connection established to server'],
  [
    'test_Videomore_1 (test.test_download.TestDownload) ... ERROR',
    'test_Vidio (test.test_download.TestDownload) ... FAIL',
  ],
  [
    'test_VidmeUserLikes (test.test_download.TestDownload) ...',
    'test_VidmeUser (test.test_download.TestDownload) ... ERROR',
  ],
  ['Downloading foo.jar', 'Compiling foo.jar'],
  ['[api] retrying request 3 after 1500ms', '[api] giving up request 3 after 1500ms'],
  ['[INFO] Building core', '[ERROR] Building core'],
  ['payments_api: 3', 'orders_api: 4'],
];

describe('sameActivity', () => {
  it.each(SAME)('folds %j and %j', (a, b) => {
    expect(sameActivity(a, b)).toBe(true);
    expect(sameActivity(b, a)).toBe(true);
  });
  it.each(OTHER)('keeps %j and %j apart', (a, b) => {
    expect(sameActivity(a, b)).toBe(false);
    expect(sameActivity(b, a)).toBe(false);
  });
});
