/**
 * Stable numeric error codes (RainMaker families, `reference/rainmaker-contract.md` A.1 and
 * appendix 1) and the server's own failure texts where the spec quotes none.
 */
export const ERROR_CODES = {
  internal: 100001,
  apiVersionUnsupported: 100002,
  methodNotAllowed: 100003,
  forbidden: 100004,
  invalidRequestBody: 100006,
  invalidQueryParam: 100021,
  notFound: 100015,
  payloadTooLarge: 100036,
  accessTokenMissing: 100046,
  loggedOut: 100047,
  tooManyRequests: 100070,
  /** The server's disk (or database) is full: answered with 507 (QUALITY R2). */
  storageFull: 100080,
  /** The server's storage failed to read or write (I/O error): answered with 503. */
  storageFailed: 100081,
  /** The database kept refusing a write because of concurrent ones (deadlocks): answered with 503. */
  writeConflict: 100082,
  /** The shared state store (Redis, REDIS_URL) did not answer: answered with 503. */
  sharedStateUnavailable: 100083,
  incorrectCredentials: 101009,
  currentPasswordWrong: 101007,
  passwordPolicy: 101004,
  refreshFailed: 101017,
  attemptLimit: 101019,
  csrfMissing: 100012,
  /** Registration of a node id that exists already (answered with 409). */
  nodeAlreadyRegistered: 105050,
  otaImageInvalid: 104002,
  otaImageNotFound: 104015,
  otaImageInUse: 104020,
  otaImageArchived: 104018,
  otaJobInvalid: 105001,
  otaJobNotFound: 105015,
  otaJobState: 105014,
  otaNoTargets: 105009,
  uploadInvalid: 112001,
  /** common_custom_data: the name does not exist / a fault catalogue cannot be deleted. */
  customDataNameNotFound: 115004,
  customDataInvalid: 115001,
  /** Identity providers, app clients, Cognito domain, backups, social sign-in (A.8 1120xx, 1240xx). */
  identityProviderInvalid: 112044,
  identityProviderNotFound: 112045,
  callbackUrlInvalid: 112032,
  appClientNotFound: 112062,
  domainInvalid: 112035,
  domainMissing: 112031,
  domainNotConfigured: 112030,
  domainInOtherPool: 112028,
  appClientBackupNotFound: 124002,
  socialSignInRefused: 101029,
  /** User administration, templates and sender verification (A.3, A.8: 1010xx, 1120xx, 1190xx, 1250xx). */
  userExists: 101006,
  userNotFound: 101025,
  selfOperation: 101053,
  userDeleteCodeIncorrect: 119005,
  userDeleteCodeMissing: 119007,
  userDeleteNoRequest: 119015,
  userDeleteAttemptsExceeded: 119016,
  superAdminDeletion: 119017,
  customDataInvalidKey: 125002,
  customDataUserMissing: 125003,
  templateInvalid: 112018,
  templateSubjectEmpty: 112020,
  senderNotVerified: 112037,
  senderInUse: 112051,
  /** Sign-up, verification, password recovery, user settings and MFA (A.2, appendix 1). */
  credentialsMissing: 101003,
  accountNotVerified: 101015,
  userAlreadyVerified: 101011,
  verificationCodeIncorrect: 101012,
  verificationCodeExpired: 100068,
  verificationCodeAttempts: 100067,
  mfaSessionMissing: 101039,
  phoneInvalid: 101037,
  userNothingToUpdate: 101045,
  phoneMissing: 101047,
  phoneNotVerified: 101048,
  phoneAlreadyVerified: 101052,
  userNameInvalid: 101053,
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Failure texts of the server that the spec does not quote. */
export const SERVER_MESSAGES = {
  selectNodesForGroup: 'Select at least one node to add to or remove from the group.',
  internal: 'Internal server error',
  invalidRequestBody: 'Invalid request body',
  invalidQueryParam: 'Invalid query param',
  nulCharacter: 'Text must not contain the NUL character (\\u0000)',
  loneSurrogate:
    'Text must be valid Unicode: it holds a lone surrogate character (\\uD800–\\uDFFF)',
  invalidUrl: 'The URL is not valid: check its percent-encoding',
  badHttpRequest: 'The request is not valid HTTP',
  headersTooLarge: 'The request headers are too large',
  contentEncodingUnsupported:
    'Compressed request bodies are not accepted: send the body without a Content-Encoding',
  notFound: 'Not found',
  routeNotFound: 'Route not found',
  forbidden: 'You are not authorized to perform this operation',
  tooManyRequests: 'Too many requests, try again later',
  incorrectCredentials: 'Incorrect user name or password',
  currentPasswordWrong: 'The password you entered is incorrect',
  passwordTooCommon: 'This password is too common. Please choose a different one.',
  passwordSameAsOld: 'The new password must be different from the current one.',
  refreshFailed: 'Refresh token failed',
  loggedOut: 'You were logged out, please login again',
  csrfMissing: 'Invalid Request: a cookie-authenticated write needs the X-Fleetdeck-CSRF header',
  crossOrigin: 'Invalid Request: cross-origin writes are not allowed',
  loginSuccessful: 'Login successful',
  logoutSuccessful: 'Logged out successfully',
  payloadTooLarge: 'Error, input size is too large',
  storageFull:
    'The server has run out of storage space, so nothing was saved. Try again once space has been freed.',
  storageFailed:
    'The server could not read or write its storage, so nothing was saved. Try again shortly.',
  writeConflict:
    'The server was busy with other changes to the same data, so nothing was saved. Try again.',
  sharedStateUnavailable:
    'The server could not reach its shared state store, so the request was not processed. Try again shortly.',
  groupNotFound: 'Node group does not exist',
  // Nodes and user ↔ node mapping (RainMaker's 100015 text for an unknown node).
  nodeNotFound: 'Node does not exist',
  mappingRequestNotFound: 'Mapping request does not exist',
  mappingRequestAccepted: 'Mapping request accepted',
  // Sent on an event stream as it is closed, not as a failure body (a stream is never refused).
  eventStreamReplaced:
    'This event stream was closed because this account opened a newer one while it already had as many open as it may keep.',
  groupNameRequired: 'Please provide group name.',
  groupNameTooLong: 'Group name can have at most 64 characters.',
  groupDescriptionTooLong: 'Description can have at most 500 characters.',
  // Images and OTA jobs (the spec quotes no text for these).
  idMissing: 'Id is missing',
  invalidId: "Invalid id: use 1–64 letters, digits, '_' or '-'",
  jobNameTooLong: 'Job name can have at most 64 characters.',
  fieldTooLong: 'Name, type, version and model can have at most 64 characters.',
  searchTooLong: 'Search can have at most 64 characters.',
  invalidFileName: 'Please provide a valid file name.',
  invalidFileType: 'Only .bin or .zip files can be uploaded.',
  invalidZip: 'The file is not a valid .zip package.',
  invalidBase64: 'The firmware image is not valid base64.',
  emptyImage: 'The firmware image is empty.',
  imageTooLarge: 'The firmware image is larger than the allowed size.',
  imageNotFound: 'OTA image does not exist',
  imageInUse: 'The image is used by an active OTA job. Cancel the job before deleting the image.',
  imageArchived: 'The image is archived. Unarchive it before starting an OTA job.',
  uploadNotFound: 'No uploaded file at this file_path. Upload the file first.',
  uploadUrlInvalid: 'The upload URL is invalid or has expired.',
  downloadUrlInvalid: 'The download URL is invalid or has expired.',
  jobNotFound: 'OTA job does not exist',
  jobNotCancelled: 'Only a cancelled job can be archived.',
  jobAlreadyCancelled: 'The job is already cancelled.',
  groupsNotFound: 'These groups do not exist: {groups}',
  notAFaultImage: 'This image is not a fault image, so it has no fault to target.',
  nodesNotFound: 'These nodes do not exist: {nodes}',
  imageDeleted: 'Firmware image deleted successfully.',
  imageArchivedDone: 'Firmware image archived successfully.',
  imageUnarchivedDone: 'Firmware image unarchived successfully.',
  // common_custom_data (rainmaker-contract A.8).
  customDataNameNotFound: "Name doesn't exist",
  customDataSaved: 'Common custom data updated successfully.',
  customDataDeleted: 'Common custom data deleted successfully.',
  faultCatalogueNotDeletable: 'A fault catalogue cannot be deleted; save an edited one instead.',
  customDataTooLarge: 'Request body exceeds maximum allowed limit',
  // Statistics (RainMaker's texts where the spec quotes none).
  statsInvalidMetrics: 'Error, Please provide valid metrics list separated by comma',
  statsInvalidTimezone: 'Error, Please specify the timezone parameter correctly',
  statsMonthlyLimit: 'Monthly data can be retrieved for 1 to 24 months',
  statsYearlyLimit: 'Yearly data can be retrieved for 1 to 5 years',
  // Identity providers, app clients, domain, backup and social sign-in (A.8 texts where it has them).
  providerTypeInvalid:
    'Please provide a valid identity provider type from given options[Google/SignInWithApple/GitHub]',
  identityProviderNotFound: 'Error, the identity provider does not exist',
  identityProviderDeleted: 'Identity provider deleted successfully',
  callbackUrlInvalid: 'Callback Url is incorrect',
  issuerInvalid: 'The issuer must be an http:// or https:// URL.',
  appClientIdMissing: 'Client Id is missing',
  appClientNotFound: 'App client does not exist',
  domainMissing: 'Domain name is missing',
  domainInvalid:
    'The domain name is invalid. Domain names can only contain lower-case letters, numbers, and hyphens',
  domainNotConfigured: 'Domain name is not configured',
  domainInOtherPool: 'Domain name already associated with another user pool',
  appClientBackupCreated: 'Cognito app client backup created successfully',
  appClientBackupRestored: 'Cognito app client configuration restored successfully',
  socialProviderUnavailable: 'This sign-in provider is not configured for this deployment.',
  socialDomainMissing:
    'Social sign-in needs a Cognito domain name. Configure one in Deployment Settings.',
  redirectUriNotAllowed: "The redirect_uri is not one of the app client's callback URLs.",
  oauthStateInvalid: 'This sign-in link is invalid or has expired. Please start again.',
  socialSignInFailed: 'Sign-in with the provider failed. Please try again.',
  socialEmailMissing: 'The provider did not share a verified e-mail address for this account.',
  oauthCodeInvalid: 'The code is invalid, expired or already used.',
  // User administration, templates and sender verification (our texts where the spec has none).
  userExists: 'User account already exist',
  userNotFound: 'User does not exist',
  selfDeletion: 'Error, self-operations are prohibited',
  superAdminDeletion: 'Super-admin user deletion is restricted!',
  onlySuperAdminGrantsSuperAdmin: 'Only a super admin can give the super admin role.',
  userDeleteCodeIncorrect: 'Verification code is incorrect',
  userDeleteCodeExpired:
    'The entered verification code has expired. Please try again with a new request.',
  userDeleteNoRequest: 'No delete request exists for the user',
  userDeleteAttemptsExceeded: 'Attempt limit exceeded, please request for delete user again',
  userDeleteCodeMissing: 'Verification code is missing',
  userDeleteCodeSent: 'A verification code has been sent to your e-mail address.',
  lastSuperAdminSelfDeletion:
    'You are the only super admin. Give another user the super admin role before deleting your account.',
  lastSuperAdminRoleRemoval:
    'At least one super admin must remain. Give another user the super admin role first.',
  adminUserUpdated: 'User updated successfully.',
  customDataUserMissing: 'Error, Specify either one of user_id or user_name',
  customDataInvalidKey:
    'Custom data keys are 1 to 64 letters, digits, dots, underscores or hyphens.',
  customDataSavedForUser: 'Custom data updated successfully.',
  templateSubjectEmpty: 'Message subject is empty',
  templateSubjectTooLong: 'Message subject can have at most 200 characters.',
  templateSubjectLines: 'Message subject must be a single line.',
  templateBodyEmpty: 'Message Body is empty',
  templateBodyTooLong: 'Message body can have at most 20000 characters.',
  templateUnknownPlaceholder: 'Unknown placeholder in the template:',
  templateNeedsLink:
    'The message must include the {{link}} or {{code}} placeholder, so the user can set a password.',
  templateFromNameTooLong:
    'From name can have at most 64 characters and no quotes or angle brackets.',
  senderNotVerified:
    'The from e-mail address is not a verified sender. Add and verify it under Email Configurations first.',
  senderCodeSent: 'A verification code has been sent to the sender address.',
  senderVerified: 'Sender e-mail address verified successfully.',
  senderAlreadyVerified: 'This sender e-mail address is already verified.',
  senderRemoved: 'Sender e-mail address removed successfully.',
  senderIsDefault: "The deployment's own sender address cannot be removed.",
  senderInUse:
    'The email template sends from this address. Choose another from e-mail address first.',
  senderNotFound: 'This sender e-mail address is not on the list.',
  senderCodeIncorrect: 'Verification code is incorrect',
  // Sign-up, verification, password recovery, user settings and MFA (A.2 texts where it has them;
  // the sign-up and recovery answers never say whether an account exists).
  signUpDisabled: 'Sign-up is not available on this deployment.',
  signUpCodeSent:
    'Verification code sent. Check your e-mail and enter the code to finish signing up.',
  credentialsMissing: 'Password or verification code is missing',
  userAlreadyVerified: 'User name already verified',
  verificationCodeIncorrect: 'Verification code is incorrect',
  verificationCodeExpired:
    'The entered verification code has expired. Please try again with a new request.',
  verificationCodeAttempts:
    'Maximum number of verification code attempts for this request exceeded. Try again with a new verification code',
  accountNotVerified: 'Account is not verified',
  forgotCodeSent:
    'If an account exists for this e-mail address, a verification code has been sent to it.',
  mfaSmsSent: 'A verification code has been sent to your phone.',
  mfaTotpRequired: 'Enter the code from your authenticator app or one of your recovery codes.',
  mfaSessionMissing: 'Session is missing',
  mfaSessionInvalid: 'This sign-in attempt has expired. Please sign in again.',
  userNothingToUpdate: 'Error, name, phone number or MFA is missing',
  userOneUpdateOnly: 'Update exactly one of name, phone_number, verification_code or mfa.',
  userNameInvalid:
    'Error, name should have minimum 1 character and can have maximum 256 characters',
  userUpdated: 'User details updated successfully.',
  phoneMissing: 'Error, phone number not added for the user',
  phoneNotVerified: 'Error, phone number is not verified',
  phoneAlreadyVerified: 'Error, the phone number is already verified for the user',
  mfaEnabled: 'MFA enabled successfully.',
  mfaDisabled: 'MFA disabled successfully.',
  totpStarted: 'Scan the QR code with your authenticator app, then enter the code it shows.',
  totpEnabled: 'Authenticator app enabled. Keep the recovery codes safe: each works once.',
  totpDisabled: 'Authenticator app removed.',
  totpCodeInvalid: 'The authenticator code is not valid.',
  totpNotStarted: 'Start the authenticator app set-up first.',
  totpAlreadyEnabled: 'An authenticator app is already set up. Remove it before adding another.',
  totpNotEnabled: 'No authenticator app is set up.',
} as const;

/** The failure body every 4xx/5xx answer carries. */
export interface FailureBody {
  status: 'failure';
  description: string;
  error_code: number;
}
