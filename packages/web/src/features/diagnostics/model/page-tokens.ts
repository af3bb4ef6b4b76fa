/**
 * Log paging (access §4): the insights API answers each page with the `pagetoken` of the next.
 * The stack holds the tokens of the pages after the first, so Next pushes the answer's token and
 * Prev pops; the first page is asked for without a token.
 */
export type PageTokenStack = readonly string[];

export const FIRST_LOG_PAGE: PageTokenStack = [];

/** The token that loads the current page (undefined on the first page). */
export function currentPageToken(stack: PageTokenStack): string | undefined {
  return stack.at(-1);
}

/** 1-based number of the current page. */
export function logPageNumber(stack: PageTokenStack): number {
  return stack.length + 1;
}

export function canGoPrevPage(stack: PageTokenStack): boolean {
  return stack.length > 0;
}

/** The last page is the one answered without a token (or with the token that loaded it). */
export function canGoNextPage(
  stack: PageTokenStack,
  nextToken: string | null | undefined,
): nextToken is string {
  return typeof nextToken === 'string' && nextToken !== '' && nextToken !== stack.at(-1);
}

export function nextPage(stack: PageTokenStack, nextToken: string): PageTokenStack {
  return [...stack, nextToken];
}

export function prevPage(stack: PageTokenStack): PageTokenStack {
  return stack.slice(0, -1);
}
