/**
 * Every message quoted in §5 (validation) and §8 (errors, empty results, successes) of both spec
 * documents, verbatim. Screens and the server import these; nothing re-types the text.
 */
export const MESSAGES = {
  // --- Session (fleet-management §8, access §8) ---
  sessionExpired: 'Session expired. Please login again!',
  unauthorizedDescription: 'Unauthorized',
  somethingWentWrong: 'Something went wrong!',
  loggedOut: 'Logged out.',
  logoutConfirm: 'You are about to logout from the dashboard. Are you sure?',
  logoutConfirmButton: 'Yes, Logout',
  unauthorisedPage: 'Sorry! You are not authorised to view this dashboard.',

  // --- Login (access §5) ---
  invalidUsername: 'Please enter a valid username.',
  invalidPassword: 'Please enter a valid password.',

  // --- Sign-up (access §5) ---
  enterAllDetails: 'Please enter all the details.',
  invalidEmail: 'Please enter a valid email',
  passwordsDidNotMatch: 'Passwords did not match',
  passwordPolicy:
    'Password must be atleast 8 characters long. It should contain atleast one uppercase, one lowercase character and a number',
  agreeToTerms: 'Please agree to the terms of service.',

  // --- Forgot and new password (access §5) ---
  forgotInvalidUsername: 'Please enter a valid username',
  newPasswordsDidNotMatch: 'Passwords did not match!',
  verificationCodeNotValid: 'Verification code is not valid!',
  passwordChangedSigningIn: 'Password changed successfully. Signing you in...',

  // --- Password change (fleet-management §5, §8) ---
  passwordChanged: 'Password changed successfully.',

  // --- Identity provider, MFA, diagnostics (access §5) ---
  provideAllDetails: 'Please provide all details.',
  callbackUrlsBlank: 'Callback URLs cannot be kept blank!',
  addPhoneFirst: 'You should add phone number first to enable MFA.',
  enterVerificationCode: 'Please enter a verification code.',
  enableDiagnosticsFirmware:
    'Please ensure that the diagnostics support is enabled in your firmware to turn on insights.',

  // --- Statistics ranges (access §5) ---
  statsInvalidDates: 'Please enter valid start and end date',
  statsDateRangeInvalid: 'Range you entered is invalid. Start date should be before end date.',
  statsDailyLimit: 'Daily data can be retrieved for 1 to 31 days',
  statsInvalidMonths: 'Please enter valid start and end month',
  statsMonthRangeInvalid: 'Range you entered is invalid. Start month should be before end month.',
  statsInvalidYears: 'Please enter valid start and end year',
  statsYearRangeInvalid: 'Range you entered is invalid. Start year should be before end year.',
  statsWeeklyLimit: 'Weekly data can be retrieved for 1 to 3 months',

  // --- Groups (fleet-management §5, §8) ---
  selectGroupToAdd: 'You will need to select a group to add nodes!',
  noGroupsCreated: "There isn't any Node Group created. Please create one to start adding nodes.",
  createNodeGroup: 'Please create a Node Group',
  addedNodesToGroup: 'Successfully added nodes to {group}',
  groupCreated: 'Node group created successfully.',
  groupDeleted: 'Node group deleted successfully.',
  /** The spec names a "no-nodes-in-group message" without quoting it; this is ours. */
  noNodesInGroup: 'There are no nodes in this group yet.',

  // --- Images and OTA (fleet-management §5, §8) ---
  invalidImageName: 'Please provide a valid image name.',
  provideJobName: 'Please provide job name.',
  selectGroupOrNode: 'Please select atleast one group or one node.',
  noClaimedNodesForOta: "You don't have any claimed nodes to start OTA!",
  firmwareImageAdded: 'Firmware Image added successfully.',
  otaStarted: 'OTA started successfully.',
  jobCancelled: 'Job cancelled successfully.',
  jobArchived: 'Job archived successfully.',
  otaTopicsHint: 'Please ensure that OTA using Topics is enabled in your firmware.',
  groupsMoreThan20: 'The number of groups are more than 20.',
  nodesMoreThan10: 'The number of nodes are more than 10, you can check all nodes in below table.',

  // --- Users and templates (fleet-management §5, §8) ---
  enterFirstName: 'Please enter first name',
  enterLastName: 'Please enter last name',
  enterCity: 'Please enter city name',
  invalidPhone: 'Please provide valid phone number',
  invalidEmailAddress: 'Please enter valid email address',
  selectRole: 'Please select his role',
  selectGeoRegion: 'Please select his geo_regin',
  invalidDate: 'Please enter correct date format',
  enterVerificationCodeAlert: 'enter verification code!',
  userCreated: 'User created successfully.',
  userDeleted: 'User deleted successfully.',
  emailTemplateUpdated: 'Email template updated successfully.',

  // --- 404s and empty results (both §8) ---
  noNodesClaim: 'No nodes found. Please start by claiming.',
  noOtaJobs: 'No OTA Jobs found.',
  noNodeForJob: 'No node associated with this job',
  nodesNotFound: 'Nodes not found.',
  deviceNotFound: 'Device not found.',
  firmwareImageNotFound: 'Firmware image not found.',
  userNotFound: 'User not found.',
  locationNotFound: 'location not found.',
  noDataFound: 'No data found!',
  noDataSelectOther: 'No data. Please select other option',

  // --- Settings successes and failures (access §8) ---
  noCognitoBackup: 'No cognito app client backup found',
  identityProviderEdited: 'Identity provider edited successfully',
  identityProviderConfigured: 'Identity provider configured successfully',
  cognitoConfigurationsUpdated: 'Cognito configurations updated successfully',
  cognitoDomainAdded: 'Cognito domain name added successfully',
  cognitoDomainDeleted: 'Cognito domain name deleted successfully',
  cognitoDomainHint: 'lower-case letters, numbers and hyphens',
  updateCheckFailed: 'Could not check for updates. Please check later.',
  updateFailed: 'Something went wrong! Please try later',
  dashboardUpdated: 'Dashboard updated successfully!',
  eventFilterConfigured: 'Event filter configured successfully!',
  mobilePlatformDeleted: 'Mobile platform deleted successfully!',
  privacyPolicyUpdated: 'Privacy Policy updated successfully',
  termsOfUseUpdated: 'Terms of Use updated successfully',
  privacyPolicyDeleted: 'Privacy Policy deleted successfully',
  termsOfUseDeleted: 'Terms of Use deleted successfully',
  mobileNotificationsEnabled: 'Mobile notifications enabled successfully',
  mobileNotificationsDisabled: 'Mobile notifications disabled successfully',
  platformCreated: 'Created platform for push notifications successfully',
  licenseUploaded: 'License file is uploaded successfully.',
  verificationCodeSent: 'verification code sent',
  userVerified: 'User verified successfully',
  phoneNumberAdded: 'Phone number successfully added',
  phoneNumberVerified: 'Phone number successfully verified',

  // --- Diagnostics (access §8) ---
  firmwareImageMissingForLog:
    'We could not find the firmware image to cross-reference this log entry. Please update a firmware image...',
  missingElfRemark: 'Some information is missing!...',

  // --- Identity settings and social sign-in (ADR 12; our texts, the spec has none) ---
  socialSignInRefused: 'The sign-in provider did not let you in. Please try again.',
  identityProvidersIntro:
    "The providers configured here sign people in through the pool's app clients: the login page's buttons in a standard deployment, end users' apps in a customer deployment (whose login page shows no social sign-in). Secrets are stored encrypted and never shown again in full.",
  inactivePoolTitle: 'Not the user pool sign-ins use',
  inactivePoolNotice:
    'You are editing the {pool}, but this server signs people in through the {active} (server setting USER_POOL). These settings take effect only for sign-ins through the {pool}, that is once the server runs with USER_POOL set to it.',
  providerCallbackUrlsHint:
    "Comma-separated. A URL new to this provider is also added to the pool's app client; the app client's list (Cognito Configurations) is the one sign-ins check, and editing a provider never brings back a URL removed there.",

  // --- Account security limits (S3; our texts, the spec has none) ---
  mfaOffNeedsProof:
    'To turn MFA off, enter your password (or a current code from your authenticator app).',
  mailDeliveryFailed: 'Failed to send the e-mail. Please try later.',
  smsDeliveryFailed: 'Failed to send the text message. Please try later.',

  // --- Deleting one's own account (A.2 self-deletion; our texts, the spec has none) ---
  deleteAccountConsequence:
    'Deleting your account signs you out everywhere and releases any devices you have claimed. It cannot be undone. To confirm, we e-mail a 6-digit code to {email}.',
  deleteAccountCodeSent: 'We sent a 6-digit code to {email}. It is valid for 10 minutes.',
  accountDeleted: 'Your account has been deleted.',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** Fills `{name}` placeholders of a message, e.g. 'Successfully added nodes to {group}'. */
export function formatMessage(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
