/**
 * The longest run of literal characters a pattern requires at top level (outside groups, classes and optional
 * parts), or undefined. Top-level alternation makes any run optional, so it yields undefined.
 */
export function requiredLiteral(pattern: string): string | undefined;

/** Compares two library versions the way advisories mean them; undefined when either cannot be read. */
export function compareVersions(a: string, b: string): number | undefined;
