/**
 * Node built-ins for the modules on the cached get-token path, loaded with
 * `process.getBuiltinModule` instead of ESM imports. An ESM import of a built-in builds a facade
 * that reads every export, and for node:crypto, node:fs and node:util that drags in WebCrypto,
 * fs/promises, streams and TextDecoder: about a third of a cached run's budget
 * (bench/token.bench.ts). node:fs itself is already loaded when Node starts.
 */
/** node:fs (sync reads: it costs nothing extra). */
export const nodeFs = () => process.getBuiltinModule('node:fs');
/** node:fs/promises, for writes (off the cached path). */
export const nodeFsPromises = () => process.getBuiltinModule('node:fs/promises');
/** node:crypto. */
export const nodeCrypto = () => process.getBuiltinModule('node:crypto');
/** node:os. */
export const nodeOs = () => process.getBuiltinModule('node:os');
/** node:util. */
export const nodeUtil = () => process.getBuiltinModule('node:util');
