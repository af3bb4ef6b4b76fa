import type { CurrentUser } from '@fleetdeck/contract';
import { AppShell, Burger, Center, Group, Progress, useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { memo, useEffect, useRef, type MouseEvent, type ReactNode, type RefObject } from 'react';
import { Link } from 'react-router';
import { BrandMark } from '../../components/brand-mark';
import { Copyright } from '../../components/copyright';
import { HOME_PATH } from '../../lib/paths';
import { APP_LABELS } from '../labels';
import { AccountMenu } from './account-menu';
import { homeTarget } from './nav-items';
import { SidebarNav } from './sidebar-nav';

const HEADER_HEIGHT = 60;
const FOOTER_HEIGHT = 40;
const NAVBAR_WIDTH = 280;

const PADDING = { base: 'md', sm: 'lg' } as const;
const NAVBAR_ID = 'main-navigation';
/** The page's <main>; the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';
/** Below this width (the AppShell's `sm`) the sidebar is a menu that slides in over the page. */
const NAVBAR_BREAKPOINT = 'sm';

/*
 * The header and footer are memoised: a list's filters live in the query string, and each
 * change re-renders the route's layout; the shell around the page stays as it is (B8).
 */
const ShellHeader = memo(function ShellHeader({
  user,
  navOpened,
  onToggleNav,
  burgerRef,
  loading,
}: {
  user: CurrentUser | null;
  navOpened: boolean;
  onToggleNav: () => void;
  burgerRef: RefObject<HTMLButtonElement | null>;
  loading: boolean;
}) {
  return (
    <AppShell.Header>
      <Group h="100%" px="md" justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Burger
            ref={burgerRef}
            opened={navOpened}
            onClick={onToggleNav}
            hiddenFrom="sm"
            size="sm"
            aria-label="Toggle navigation"
            aria-expanded={navOpened}
            aria-controls={NAVBAR_ID}
          />
          <Link
            to={user ? homeTarget(user.user_role) : HOME_PATH}
            aria-label="Fleetdeck home"
            style={{ textDecoration: 'none' }}
          >
            <BrandMark />
          </Link>
        </Group>
        {user && <AccountMenu user={user} />}
      </Group>
      {loading && (
        <Progress
          value={100}
          animated
          size={2}
          radius={0}
          pos="absolute"
          bottom={0}
          left={0}
          right={0}
          aria-label="Loading page"
        />
      )}
    </AppShell.Header>
  );
});

const ShellFooter = memo(function ShellFooter() {
  return (
    <AppShell.Footer>
      <Center h="100%">
        <Copyright />
      </Center>
    </AppShell.Footer>
  );
});

/**
 * The first tab stop of every signed-in page, shown only while it has focus: it takes keyboard
 * users past the header and the sidebar. Focus moves by script, not by the #hash, so the URL
 * (which the router owns) stays as it is.
 */
function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    document.getElementById(MAIN_CONTENT_ID)?.focus();
  };
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className="skip-link" onClick={skip}>
      {APP_LABELS.skipToMain}
    </a>
  );
}

/**
 * The dashboard's frame: header, sidebar, the page, footer. Without a user (the static shell a
 * signed-in page load paints before the app has started, ADR 35) the header has no account menu
 * and the sidebar no entries; everything else, and so where the page's heading lands, is the same.
 */
export function DashboardFrame({
  user,
  navOpened,
  onToggleNav,
  onCloseNav,
  loading,
  children,
}: {
  user: CurrentUser | null;
  navOpened: boolean;
  onToggleNav: () => void;
  onCloseNav: () => void;
  loading: boolean;
  children: ReactNode;
}) {
  const burgerRef = useRef<HTMLButtonElement>(null);
  const navbarRef = useRef<HTMLDivElement>(null);
  const theme = useMantineTheme();
  // The closed phone menu is only slid off screen: inert keeps it out of the tab order and away
  // from screen readers. Read at once (not in an effect) so a desktop page never starts inert;
  // the prerendered shell (no window) renders it as on desktop.
  const wide = useMediaQuery(`(min-width: ${theme.breakpoints[NAVBAR_BREAKPOINT]})`, true, {
    getInitialValueInEffect: false,
  });

  // On a phone the open menu covers the page: Escape closes it like any other overlay, and focus
  // that was in the menu goes back to the burger instead of staying on a link slid off screen.
  useEffect(() => {
    if (!navOpened) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const focusInMenu = navbarRef.current?.contains(document.activeElement) ?? false;
      onCloseNav();
      if (focusInMenu) burgerRef.current?.focus();
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [navOpened, onCloseNav]);

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      footer={{ height: FOOTER_HEIGHT }}
      navbar={{
        width: NAVBAR_WIDTH,
        breakpoint: NAVBAR_BREAKPOINT,
        collapsed: { mobile: !navOpened },
      }}
      padding={PADDING}
    >
      <SkipLink />
      <ShellHeader
        user={user}
        navOpened={navOpened}
        onToggleNav={onToggleNav}
        burgerRef={burgerRef}
        loading={loading}
      />

      <AppShell.Navbar
        p="sm"
        aria-label="Main navigation"
        id={NAVBAR_ID}
        ref={navbarRef}
        inert={!wide && !navOpened}
      >
        {user && <SidebarNav user={user} onNavigate={onCloseNav} />}
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0" id={MAIN_CONTENT_ID} tabIndex={-1}>
        {children}
      </AppShell.Main>

      <ShellFooter />
    </AppShell>
  );
}
