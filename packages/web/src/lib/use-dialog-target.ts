import { useCallback, useEffect, useRef, useState } from 'react';

/** The element that has focus now, unless that is nothing in particular (<body>). */
function focusedControl(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}

/** Whether focus can go back to the opener: still on the page, not disabled, not made inert. */
function canTakeFocus(element: HTMLElement): boolean {
  return (
    element.isConnected &&
    !element.matches(':disabled, [aria-disabled="true"]') &&
    element.closest('[inert]') === null
  );
}

/**
 * Where focus goes when the opener cannot take it back (the dialog's action disabled or removed
 * it, e.g. "Add to Device Group" once the selection is cleared): the page's heading, made
 * focusable from script only, so keyboard and screen-reader users carry on from the top of the
 * page they are on instead of from <body>.
 */
export function focusPageHeading(): boolean {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (heading === null) return false;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
  return true;
}

/**
 * What a dialog is open for (null while it is closed), with `open` and `close` that give keyboard
 * focus back to the control that opened it once the dialog has gone.
 *
 * Mantine's Modal returns focus only when it was mounted closed and stays mounted through its
 * close transition. Our dialogs mount when they open and unmount when they close (their state
 * belongs to one opening; some load lazily), so without this focus would fall to <body>.
 */
export function useDialogTarget<T>(): {
  target: T | null;
  open: (target: T) => void;
  close: () => void;
} {
  const [target, setTarget] = useState<T | null>(null);
  const opener = useRef<HTMLElement | null>(null);

  const open = useCallback((next: T) => {
    opener.current = focusedControl();
    setTarget(next);
  }, []);
  const close = useCallback(() => setTarget(null), []);

  useEffect(() => {
    if (target !== null) return;
    const element = opener.current;
    opener.current = null;
    // Only when focus went nowhere: a dialog that led on (to another page) keeps its new focus.
    if (element === null || focusedControl() !== null) return;
    if (canTakeFocus(element)) element.focus({ preventScroll: true });
    else focusPageHeading();
  }, [target]);

  return { target, open, close };
}
