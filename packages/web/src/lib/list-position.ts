import { ID_PATTERN, SEARCH_MAX_LENGTH } from '@fleetdeck/contract';
import { isApiError } from './api-error';
import { FIRST_PAGE, toPageSize, type CursorStack } from './paging';

/**
 * Where a list is, kept in the query string so that Back from a row returns to the same page.
 * Cursor-paged lists keep their page size and the cursors that lead to the current page (see
 * paging.ts), so Prev still works and 'Page X of Y' is right after Back; lists paged in the
 * browser keep their page size and page number. Pure functions; useUrlCursorPaging and
 * useUrlPageNumber (use-url-paging.ts) wire them to the router.
 */
export interface ListPosition {
  pageSize: number;
  stack: CursorStack;
}

/** Where a list paged in the browser is: its page size and its 1-based page number. */
export interface PagePosition {
  pageSize: number;
  page: number;
}

/**
 * The query parameters of a list's position. `cursor` repeats, one per page after the first;
 * `page` is the page number of a list paged in the browser.
 */
export const POSITION_PARAMS = { pageSize: 'size', cursor: 'cursor', page: 'page' } as const;

/** The parameters that name the page: a new search or filter drops them (page 1, same size). */
export const PAGE_PARAMS: readonly string[] = [POSITION_PARAMS.cursor, POSITION_PARAMS.page];

/** Page numbers beyond this are not taken from an address (no list here has that many pages). */
const MAX_PAGE_NUMBER = 1_000_000;

/**
 * Whether a cursor from the address can be sent as a list's `start_id`: the list APIs take at
 * most 64 characters, trimmed. Anything else was not written by the list (a hand-edited or
 * mangled address), and sending it would only earn a 400.
 */
export function isPlausibleCursor(cursor: string): boolean {
  return cursor !== '' && cursor.length <= SEARCH_MAX_LENGTH && cursor.trim() === cursor;
}

/** A cursor that can be a node, image or job id: the lists keyed by those refuse anything else. */
export function isIdCursor(cursor: string): boolean {
  return isPlausibleCursor(cursor) && ID_PATTERN.test(cursor);
}

/** The page size a query string names; a size the list does not offer falls back. */
export function pageSizeFromParams(
  params: URLSearchParams,
  sizes: readonly number[],
  defaultSize: number,
): number {
  const size = params.get(POSITION_PARAMS.pageSize);
  return size === null ? defaultSize : toPageSize(size, sizes, defaultSize);
}

/**
 * The position a query string describes. A size the list does not offer falls back to the
 * default; a cursor that `isCursor` refuses makes the whole stack unusable (the page number would
 * be wrong without it), so the list shows page 1.
 */
export function positionFromParams(
  params: URLSearchParams,
  sizes: readonly number[],
  defaultSize: number,
  isCursor: (cursor: string) => boolean = isPlausibleCursor,
): ListPosition {
  const cursors = params.getAll(POSITION_PARAMS.cursor);
  return {
    pageSize: pageSizeFromParams(params, sizes, defaultSize),
    stack: cursors.every(isCursor) ? cursors : FIRST_PAGE,
  };
}

/** A copy of `params` at `position`; the default size and page 1 leave no parameter behind. */
export function withPosition(
  params: URLSearchParams,
  position: ListPosition,
  defaultSize: number,
): URLSearchParams {
  const next = withPageSize(params, position.pageSize, defaultSize);
  for (const cursor of position.stack) next.append(POSITION_PARAMS.cursor, cursor);
  return next;
}

/** The position of a list paged in the browser; a page number that is not one means page 1. */
export function pagePositionFromParams(
  params: URLSearchParams,
  sizes: readonly number[],
  defaultSize: number,
): PagePosition {
  const raw = params.get(POSITION_PARAMS.page) ?? '';
  const page = /^[1-9][0-9]*$/.test(raw) ? Number(raw) : 1;
  return {
    pageSize: pageSizeFromParams(params, sizes, defaultSize),
    page: page <= MAX_PAGE_NUMBER ? page : 1,
  };
}

/** A copy of `params` at `position` of a list paged in the browser; page 1 writes no `page`. */
export function withPagePosition(
  params: URLSearchParams,
  position: PagePosition,
  defaultSize: number,
): URLSearchParams {
  const next = withPageSize(params, position.pageSize, defaultSize);
  if (position.page > 1) next.set(POSITION_PARAMS.page, String(position.page));
  return next;
}

/** A copy of `params` on page 1 (same page size): what a change of filters or search asks for. */
export function withoutCursors(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of PAGE_PARAMS) next.delete(name);
  return next;
}

/** A copy of `params` on page 1 at `pageSize` (none written for the default). */
function withPageSize(params: URLSearchParams, pageSize: number, defaultSize: number) {
  const next = withoutCursors(params);
  if (pageSize === defaultSize) next.delete(POSITION_PARAMS.pageSize);
  else next.set(POSITION_PARAMS.pageSize, String(pageSize));
  return next;
}

/**
 * Whether a page's answer shows that the page an address named is gone: settled (not the previous
 * page's rows shown meanwhile) with no rows, or its cursor refused (400) or not found (404). An
 * address kept from earlier (the row the cursor names deleted, the last row of the page archived)
 * or edited by hand leads there.
 */
export function isGonePage(answer: {
  rows: readonly unknown[] | undefined;
  error: unknown;
  placeholder: boolean;
}): boolean {
  if (isApiError(answer.error)) return answer.error.status === 400 || answer.error.status === 404;
  return !answer.placeholder && answer.rows?.length === 0;
}
