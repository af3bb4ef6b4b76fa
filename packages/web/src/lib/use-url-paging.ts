import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import {
  pagePositionFromParams,
  positionFromParams,
  withPagePosition,
  withPosition,
  type ListPosition,
  type PagePosition,
} from './list-position';
import {
  FIRST_PAGE,
  canGoNext,
  clampPage,
  canGoPrev,
  currentCursor,
  goNext,
  goPrev,
  pageCount,
  pageNumber,
  toPageSize,
} from './paging';
import { useStableHandler } from './use-stable-handler';

/** The props NodeTablePager takes for a list without selection. */
export interface PagerProps {
  page: number;
  pages: number | undefined;
  canPrev: boolean;
  canNext: boolean;
  onPrev: () => void;
  onNext: () => void;
  pageSize: number;
  selectedCount: number;
  pageSizes: readonly number[];
  onPageSize: (size: number) => void;
}

/** A cursor-paged list whose position lives in the query string (useUrlCursorPaging). */
export interface UrlCursorPaging {
  position: ListPosition;
  pageSize: number;
  /** The cursor of the current page: the request's `start_id` (undefined on page 1). */
  cursor: string | undefined;
  /** 1-based. */
  page: number;
  /** Moves the list (Prev, Next, a page size), replacing the address. */
  moveTo: (next: ListPosition) => void;
  /** Back to page 1 at the same size, from an effect (see useFirstPageWhenGone). */
  toFirstPage: () => void;
  /**
   * The pager's props, given what the current page answered (nothing while it is stale);
   * `loading` while the list has no answer yet, when the page count is not known.
   */
  pagerProps: (
    total: number | undefined,
    nextId: string | undefined,
    loading?: boolean,
  ) => PagerProps;
}

/**
 * Cursor paging (fleet-management §4) kept in the query string (`?size=`, one `?cursor=` per page
 * after the first), so that Back from a row returns to the same page, with Prev and 'Page X of Y'
 * as they were. Moves replace the address: Next adds no history entry. A new page size starts at
 * page 1. The screen drops the cursors when its filters change (`withoutCursors`, or useUrlSearch
 * with PAGE_PARAMS). A size the list does not offer, or a cursor that `isCursor` refuses, reads
 * as the default size or page 1.
 */
export function useUrlCursorPaging(
  sizes: readonly number[],
  defaultSize: number,
  isCursor?: (cursor: string) => boolean,
): UrlCursorPaging {
  const [params, setParams] = useSearchParams();
  const position = positionFromParams(params, sizes, defaultSize, isCursor);
  const { pageSize, stack } = position;

  const moveTo = useStableHandler((next: ListPosition) =>
    setParams((current) => withPosition(current, next, defaultSize), {
      replace: true,
      // The page (often fetched ahead) shows without waiting for a transition (B8).
      flushSync: true,
    }),
  );
  const toFirstPage = useStableHandler(() =>
    setParams((current) => withPosition(current, { pageSize, stack: FIRST_PAGE }, defaultSize), {
      replace: true,
    }),
  );

  const pagerProps = (total: number | undefined, nextId: string | undefined, loading = false) => ({
    page: pageNumber(stack),
    pages: loading ? undefined : pageCount(total, pageSize),
    canPrev: canGoPrev(stack),
    canNext: canGoNext(nextId),
    onPrev: () => moveTo({ pageSize, stack: goPrev(stack) }),
    onNext: () => {
      if (canGoNext(nextId)) moveTo({ pageSize, stack: goNext(stack, nextId) });
    },
    pageSize,
    selectedCount: 0,
    pageSizes: sizes,
    onPageSize: (size: number) =>
      moveTo({ pageSize: toPageSize(size, sizes, defaultSize), stack: FIRST_PAGE }),
  });

  return {
    position,
    pageSize,
    cursor: currentCursor(stack),
    page: pageNumber(stack),
    moveTo,
    toFirstPage,
    pagerProps,
  };
}

/**
 * Back to page 1 (replacing the address) when a page after the first is gone (isGonePage in
 * list-position.ts), rather than showing an empty 'Page 3 of 2' or an error whose retry can only
 * fail again.
 */
export function useFirstPageWhenGone(
  paging: Pick<UrlCursorPaging, 'page' | 'toFirstPage'>,
  gone: boolean,
): void {
  const { page, toFirstPage } = paging;
  useEffect(() => {
    if (gone && page > 1) toFirstPage();
  }, [gone, page, toFirstPage]);
}

/**
 * Paging in the browser (a list that arrives whole) kept in the query string (`?size=`, `?page=`),
 * replaced rather than pushed, so Back from a row returns to the same page. A page number past the
 * end shows the last page; one that is not a number, page 1.
 */
export function useUrlPageNumber(sizes: readonly number[], defaultSize: number) {
  const [params, setParams] = useSearchParams();
  const position = pagePositionFromParams(params, sizes, defaultSize);
  const { pageSize } = position;

  const moveTo = useStableHandler((next: PagePosition) =>
    setParams((current) => withPagePosition(current, next, defaultSize), {
      replace: true,
      flushSync: true,
    }),
  );

  /**
   * The pager's props for a list of `count` items, whose `page` is the page to show; `count` is
   * undefined while the list is loading: the page asked for shows, its count to come.
   */
  const pagerProps = (count: number | undefined): PagerProps => {
    const loading = count === undefined;
    const pages = loading ? undefined : pageCount(count, pageSize);
    const page = loading ? position.page : clampPage(position.page, count, pageSize);
    return {
      page,
      pages,
      canPrev: !loading && page > 1,
      canNext: pages !== undefined && page < pages,
      onPrev: () => moveTo({ pageSize, page: page - 1 }),
      onNext: () => moveTo({ pageSize, page: page + 1 }),
      pageSize,
      selectedCount: 0,
      pageSizes: sizes,
      onPageSize: (size: number) =>
        moveTo({ pageSize: toPageSize(size, sizes, defaultSize), page: 1 }),
    };
  };

  return { pageSize, pagerProps };
}
