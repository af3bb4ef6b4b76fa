/** Route paths the app navigates to in code (the route table itself is in router.tsx). */
export const LOGIN_PATH = '/login';
export const HOME_PATH = '/home';
export const UNAUTHORISED_PATH = '/unauthorised';
/** The Account Settings menu entry (access §2 writes it with the slash). */
export const CHANGE_PASSWORD_PATH = '/home/change-password/';
/** Where the customer-admin routes send everyone else (access §6 writes it without). */
export const CHANGE_PASSWORD_REDIRECT_PATH = '/home/change-password';
export const USER_REGISTRATION_PATH = '/home/userregistration/';
/** Where /home sends users without a dashboard role (access §2). */
export const DEVICES_PATH = '/home/nodes';
export const FORGOT_PASSWORD_PATH = '/forgot-password';
export const SIGN_UP_PATH = '/sign-up';
export const VERIFICATION_PATH = '/verification';
export const MFA_VERIFICATION_PATH = '/mfa-verification';
export const SET_NEW_PASSWORD_PATH = '/set-new-password';
/** The signed-in user's own profile (access §2 lists it). */
export const USER_INFO_PATH = '/home/userinfo/';
export const PRIVACY_POLICY_PATH = '/privacy-policy';
export const TERMS_OF_SERVICE_PATH = '/terms-of-service';

/** Whether a path belongs to the signed-in area (matched case-insensitively, like the routes). */
export function isSignedInPath(pathname: string): boolean {
  const lower = pathname.toLowerCase();
  return lower === HOME_PATH || lower.startsWith(`${HOME_PATH}/`);
}

/** The per-device diagnostics report (access §2), linked from device ids when the diagnostics links are on. */
export function diagnosticsReportPath(nodeId: string): string {
  return `/home/diagnostics/report/${encodeURIComponent(nodeId)}`;
}
