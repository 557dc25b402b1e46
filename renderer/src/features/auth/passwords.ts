/** The spec's minimum password length (signup and reset). */
export const MIN_PASSWORD_LENGTH = 6;
