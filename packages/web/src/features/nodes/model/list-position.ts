import { toPageSize, type CursorStack } from './paging';

/**
 * Where a list is: its page size and the cursors that lead to the current page (see paging.ts).
 * A screen that keeps it in the query string lets Back from a row return to the same page.
 */
export interface ListPosition {
  pageSize: number;
  stack: CursorStack;
}

/** The query parameters of a list's position. `cursor` repeats, one per page after the first. */
export const POSITION_PARAMS = { pageSize: 'size', cursor: 'cursor' } as const;

/** The position a query string describes; a size the list does not offer falls back. */
export function positionFromParams(
  params: URLSearchParams,
  sizes: readonly number[],
  defaultSize: number,
): ListPosition {
  const size = params.get(POSITION_PARAMS.pageSize);
  return {
    pageSize: size === null ? defaultSize : toPageSize(size, sizes, defaultSize),
    stack: params.getAll(POSITION_PARAMS.cursor).filter((cursor) => cursor !== ''),
  };
}

/** A copy of `params` at `position`; the default size and page 1 leave no parameter behind. */
export function withPosition(
  params: URLSearchParams,
  position: ListPosition,
  defaultSize: number,
): URLSearchParams {
  const next = withoutCursors(params);
  if (position.pageSize === defaultSize) next.delete(POSITION_PARAMS.pageSize);
  else next.set(POSITION_PARAMS.pageSize, String(position.pageSize));
  for (const cursor of position.stack) next.append(POSITION_PARAMS.cursor, cursor);
  return next;
}

/** A copy of `params` on page 1 (same page size): what a change of filters or search asks for. */
export function withoutCursors(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(POSITION_PARAMS.cursor);
  return next;
}
