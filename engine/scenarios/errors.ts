/** A proposal could not be made; `message` is for the user (e.g. the AI service's output did not validate twice). */
export class ProposalError extends Error {}
