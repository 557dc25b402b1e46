/** The number of checks in the engine's registry (engine/checks/index.ts CHECKS) under `root`. */
export function checkCount(root: string): number;
