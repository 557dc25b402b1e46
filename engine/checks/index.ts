// The registry: every check the engine runs, in report order. A check file not listed here fails registry.test.ts.
import type { CheckDefinition } from '../types';

// transport, headers, cookies, cors
// (end transport, headers, cookies, cors)

// disclosure, exposed-files, libraries, forms, active
// (end disclosure, exposed-files, libraries, forms, active)

// secrets, supabase, firebase
// (end secrets, supabase, firebase)

export const CHECKS: readonly CheckDefinition[] = [
  // transport, headers, cookies, cors (list)
  // disclosure, exposed-files, libraries, forms, active (list)
  // secrets, supabase, firebase (list)
];

export function checkById(id: string): CheckDefinition | undefined {
  return CHECKS.find((check) => check.id === id);
}
