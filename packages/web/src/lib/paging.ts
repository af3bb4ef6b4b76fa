/**
 * Cursor paging (fleet-management §4): `next_id` is the cursor of the next page. The stack holds
 * the cursors of the pages after the first, so Prev pops and Next pushes; the first page has no
 * cursor. Pure functions, so the rules are unit-tested.
 */
export type CursorStack = readonly string[];

export const FIRST_PAGE: CursorStack = [];

/** The cursor that loads the current page (undefined on the first page). */
export function currentCursor(stack: CursorStack): string | undefined {
  return stack.at(-1);
}

/** 1-based number of the current page. */
export function pageNumber(stack: CursorStack): number {
  return stack.length + 1;
}

/** Prev is disabled when no earlier cursor exists (the first page). */
export function canGoPrev(stack: CursorStack): boolean {
  return stack.length > 0;
}

/** Next is disabled on the last page, which the server marks by leaving out `next_id`. */
export function canGoNext(nextId: string | undefined): nextId is string {
  return nextId !== undefined && nextId !== '';
}

export function goNext(stack: CursorStack, nextId: string): CursorStack {
  return [...stack, nextId];
}

export function goPrev(stack: CursorStack): CursorStack {
  return stack.slice(0, -1);
}

/** Total pages = ceil(total / page size), or 1 when there is no total (or nothing matched). */
export function pageCount(total: number | undefined, pageSize: number): number {
  if (total === undefined || !Number.isFinite(total) || total <= 0 || pageSize <= 0) return 1;
  return Math.ceil(total / pageSize);
}

/** A page size from a control or the URL, kept to the sizes the list offers. */
export function toPageSize(value: unknown, allowed: readonly number[], fallback: number): number {
  const size = typeof value === 'number' ? value : Number(value);
  return allowed.includes(size) ? size : fallback;
}

/**
 * The page of a list paged in the browser to show: the one asked for, kept within 1 … last page
 * (a page-size change, or an address from when the list was longer, may name one past the end).
 */
export function clampPage(page: number, total: number | undefined, pageSize: number): number {
  if (!Number.isFinite(page) || page < 1) return 1;
  return Math.min(Math.floor(page), pageCount(total, pageSize));
}
