/**
 * The static shells the build writes (dist/shells/<name>.html, ADR 35) and the server picks
 * from; kept in step with STATIC_SHELLS in packages/server/src/http/web-app.ts. The sign-in page
 * has one per deployment mode (a standard deployment shows the sign-up link, customer mode not).
 */
export const STATIC_SHELL_NAMES = ['login', 'login-customer', 'devices'] as const;
export type StaticShellName = (typeof STATIC_SHELL_NAMES)[number];

/** The attribute on the shell's wrapper inside #root that names it. */
export const STATIC_SHELL_ATTRIBUTE = 'data-static-shell';

/** Whether a shell is one of the sign-in page's. */
export function isLoginShell(name: string | null): boolean {
  return name === 'login' || name === 'login-customer';
}
