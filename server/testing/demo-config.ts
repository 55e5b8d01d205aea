import type { ServiceConfig } from '../compose.ts';

/**
 * What `serve --demo` resolves to on loopback with `dataDir` (the built-in simulator, no group of
 * its own), with `overrides` on top: for tests that compose the real service without a harness.
 */
export function demoConfig(dataDir: string, overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    gitlabUrl: 'https://gitlab.com',
    group: undefined,
    since: '7d',
    demo: true,
    dataDir,
    ...overrides,
  };
}
