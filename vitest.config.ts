import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Two projects: Node code (server, cli, main) and the browser UI (renderer, in jsdom).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: [
            'server/**/*.test.ts',
            'cli/**/*.test.ts',
            'main/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          // Need a real OS keychain: run by vitest.keychain.config.ts inside dbus-run-session.
          exclude: ['**/node_modules/**', '**/*.keychain.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          include: ['renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // One jsdom per worker instead of one per file (~2 s each): vmThreads keeps files isolated.
          pool: 'vmThreads',
          // jsdom renders of 500-row views take ~4 s alone on a shared 2-core box; 5 s was flaky.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
