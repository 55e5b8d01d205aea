/** `never` (no full build yet), `stale` (a source is newer than it) or `current`. */
export declare function buildState(root: string): 'never' | 'stale' | 'current';
/** Records a build; only a full build (no parts named) writes the stamp. Returns whether it did. */
export declare function recordBuild(root: string, parts: string[], info: unknown): boolean;
