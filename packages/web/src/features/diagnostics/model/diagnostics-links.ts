/**
 * Whether device ids link to their diagnostics report (access §2 Diagnostics, §6): when the
 * deployment's diagnostics option is on, or when this browser's Diag cookie is 'true' (the manual
 * override that turns the links on where the option is off). Until the option is known
 * (`undefined`), only the cookie counts.
 */
export function diagnosticsLinksOn(
  option: boolean | undefined,
  diagCookie: string | null,
): boolean {
  return option === true || diagCookie === 'true';
}
