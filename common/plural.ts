/**
 * A count next to its noun, in the singular for one: `plural(1, 'request')` is '1 request', `plural(3, 'issue')`
 * '3 issues'. Nouns whose plural is not the singular plus 's' pass it (`plural(2, 'query', 'queries')`).
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : pluralForm}`;
}

/** The noun alone, for texts that put the count elsewhere ('issues found: 3'). */
export function nounFor(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}

/**
 * A wait of `seconds` in the largest whole unit a person reads, rounded up so it is never shorter than the real
 * wait: 45 → '45 seconds', 61 → '2 minutes', 900 → '15 minutes', 5400 → '2 hours'.
 */
export function waitText(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 60) return plural(whole, 'second');
  if (whole < 3600) return plural(Math.ceil(whole / 60), 'minute');
  return plural(Math.ceil(whole / 3600), 'hour');
}
