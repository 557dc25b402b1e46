// Apart from common/pagination.ts, which builds zod schemas when loaded: the start script's painter
// (renderer/src/first-paint.ts) reads the header without carrying zod.

/** Response header carrying the cursor of the next page; absent on the last page. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';
