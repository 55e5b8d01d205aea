/**
 * Starts the service on the configured port; when another program holds it, asks the user (a
 * dialog in the app) whether to use a free port instead, never failing silently.
 */
export async function startWithPortChoice<T>(edges: {
  start(port: number | undefined): Promise<T>;
  isPortInUse(err: unknown): boolean;
  /** A free port to offer. */
  freePort(): Promise<number>;
  /** Asks the user; resolves true to use `offered`, false to give up. */
  ask(port: number | undefined, offered: number): Promise<boolean>;
  configuredPort: number;
}): Promise<T> {
  try {
    return await edges.start(undefined);
  } catch (err) {
    if (!edges.isPortInUse(err)) throw err;
    const offered = await edges.freePort();
    if (!(await edges.ask(edges.configuredPort, offered))) throw err;
    return edges.start(offered);
  }
}
