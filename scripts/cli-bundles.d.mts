/** Native addons and Electron, left outside the CLI bundles. */
export declare const CLI_EXTERNAL: string[];
/** Builds both CLI binaries (entry + `-main` bundle each) into `outdir`. */
export declare function buildCliBundles(
  root: string,
  outdir: string,
  options?: Record<string, unknown>,
): Promise<void>;
