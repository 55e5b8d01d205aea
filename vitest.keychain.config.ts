import { defineConfig } from 'vitest/config';

// Tests that need a real OS keychain (Secret Service over D-Bus on Linux). scripts/test-all.sh runs
// them inside `dbus-run-session` with an unlocked gnome-keyring-daemon; `npm test` leaves them out.
export default defineConfig({
  test: {
    include: ['cli/**/*.keychain.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
