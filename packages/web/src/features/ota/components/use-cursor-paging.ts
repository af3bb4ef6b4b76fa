import { useState } from 'react';
import {
  FIRST_PAGE,
  canGoNext,
  canGoPrev,
  currentCursor,
  goNext,
  goPrev,
  pageCount,
  pageNumber,
  toPageSize,
  type CursorStack,
} from '../../../lib/paging';

/**
 * Cursor paging of one list (fleet-management §4) wired for NodeTablePager: the page size and
 * the stack of cursors. The stack belongs to `scope` (the list's filters): when the scope or the
 * page size changes, the list starts again at page 1.
 */
export function useCursorPaging(scope: string, sizes: readonly number[], defaultSize: number) {
  const [pageSize, setPageSize] = useState<number>(defaultSize);
  const key = `${scope}|${pageSize}`;
  const [paging, setPaging] = useState<{ key: string; stack: CursorStack }>({
    key,
    stack: FIRST_PAGE,
  });
  const stack = paging.key === key ? paging.stack : FIRST_PAGE;

  /**
   * The pager's props, given what the current page answered (nothing while it is stale);
   * `loading` while the list has no answer yet, when the page count is not known.
   */
  const pagerProps = (total: number | undefined, nextId: string | undefined, loading = false) => ({
    page: pageNumber(stack),
    pages: loading ? undefined : pageCount(total, pageSize),
    canPrev: canGoPrev(stack),
    canNext: canGoNext(nextId),
    onPrev: () => setPaging({ key, stack: goPrev(stack) }),
    onNext: () => {
      if (canGoNext(nextId)) setPaging({ key, stack: goNext(stack, nextId) });
    },
    pageSize,
    selectedCount: 0,
    pageSizes: sizes,
    onPageSize: (size: number) => setPageSize(toPageSize(size, sizes, defaultSize)),
  });

  return { pageSize, cursor: currentCursor(stack), pagerProps };
}
