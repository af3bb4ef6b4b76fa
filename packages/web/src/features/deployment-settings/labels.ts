/**
 * Screen text of the Deployment Settings tabs (access §2) that `@fleetdeck/contract` does not
 * hold: the contract's LABELS has the page's pool choice and side tabs. The first block is named
 * by the spec; the second is this app's own wording for things the spec names without words.
 * Kept in one file so moving them to the contract is one edit. `{name}` marks a value filled in
 * with `formatMessage`.
 */
export const DEPLOYMENT_LABELS = {
  // --- Named by the spec ---
  save: 'Save',
  close: 'Close',
  delete: 'Delete',

  // --- This app's wording ---
  userPool: 'User pool',
  userPoolHint:
    'Identity providers, app clients, deployment details and backups belong to the chosen pool.',
  /** The side tabs' select on a narrow screen. */
  setting: 'Setting',
  loadingTab: 'Loading {tab}',
  retry: 'Retry',
  edit: 'Edit',
  editNamed: 'Edit {name}',
  deleteNamed: 'Delete {name}',
  /** A column of row actions: named for a screen reader, no visible heading. */
  columnActions: 'Actions',
  /** An empty cell of a list (no identity providers, no date). */
  noValue: '—',
  columnClientId: 'Client id',
  columnCallbackUrls: 'Callback URLs',
  columnIdentityProviders: 'Identity providers',

  // Identity Providers: the table names the region it scrolls in and the table itself.
  identityProvidersTable: 'Identity providers',
  noIdentityProviders: 'No identity provider is configured for this user pool yet.',
  columnProvider: 'Provider',
  columnSecret: 'Secret',
  columnLoginPage: 'Login page',
  loginPageShown: 'Shown',
  loginPageHidden: 'Hidden',
  providerGoogle: 'Google',
  providerApple: 'Sign in with Apple',
  providerGitHub: 'GitHub',
  // Identity Providers: the add/edit editor.
  addIdentityProvider: 'Add identity provider',
  providerType: 'Provider type',
  providerAlreadyConfigured: 'Already configured: saving replaces its settings.',
  providerName: 'Provider name',
  clientSecret: 'Client secret',
  /** A secret field's hint when editing: `{masked}` is the stored secret, masked. */
  keepStoredSecret: 'Leave empty to keep the stored one ({masked}).',
  keyId: 'Key id',
  teamId: 'Team id',
  privateKey: 'Private key',
  applePrivateKeyHint: 'The .p8 key from Apple, PEM text.',
  issuer: 'Issuer or base URL (optional)',
  issuerHintGitHub:
    'For GitHub Enterprise Server, e.g. https://github.example.com. Empty uses github.com.',
  issuerHintOpenId:
    'Only to use another OpenID provider than the public one. Empty uses the provider’s own.',
  showOnLoginPage: 'Show on the login page',

  // Cognito Configurations.
  appClientsHeading: 'App clients',
  columnClient: 'Client',
  columnUserPoolId: 'User pool id',
  noProviders: 'None',
  // Cognito Configurations: the app client editor and the domain form.
  appClientCallbackUrlsHint:
    'One per line or comma-separated. A social sign-in returns only to one of these, exactly.',
  configureProviderFirst: 'Configure a provider under Identity Providers first.',
  domainHeading: 'Domain',
  domainName: 'Domain name',
  noDomain: 'No domain is configured: social sign-in is off for this pool until one is saved.',
  domainConfigured: 'Configured: {domain}',

  // Backup & Restore.
  backedUpClientsTable: 'Backed-up app clients',
  columnClientName: 'Client name',
  noBackup:
    "There is no backup of this pool's app-client configuration yet. A backup keeps every app client with its callback URLs and identity providers, so they can be put back exactly.",
  backup: 'Backup',
  restore: 'Restore',
  replaceBackup: 'Replace with a new backup',
  /** `{date}`, `{clients}` and `{pool}` are filled with elements (bold, monospace). */
  backupSummary: 'Backup taken {date} with {clients} of user pool {pool}.',
  backupClientCountOne: '{count} app client',
  backupClientCountOther: '{count} app clients',
  restoreConfirmTitle: 'Restore the app clients?',
  restoreConfirm:
    "The pool's app clients become exactly those of the backup taken {date}. Changes made since then are lost.",

  // Deployment Details: the spec's fields (access §3) in its order.
  deploymentDetailsTable: 'Deployment details',
  fieldAccountId: 'Account id',
  fieldRegion: 'Region',
  fieldBuildInfo: 'Build info',
  fieldBaseUrl: 'Base URL',
  fieldMqttEndpoint: 'MQTT endpoint',
  fieldUserPoolId: 'User pool id',
  fieldAppClientId: 'App client id',
  copy: 'Copy',
  copied: 'Copied',
  copyNamed: 'Copy {name}',
  poolSignsIn: 'Signs people in',
  poolNotSigningIn: 'Not the pool sign-ins use (USER_POOL)',
  detailsSource:
    "Read from the server's configuration (PUBLIC_URL, MQTT_URL or MQTT_PORT, REGION, USER_POOL); change those and restart to change what is shown here.",

  // Licensing Service.
  licenceTable: 'Current licence file',
  loadingLicence: 'Loading licence',
  noLicence: 'No licence file uploaded yet.',
  columnFileName: 'File name',
  columnDateModified: 'Date modified (UTC)',
  columnCertificate: 'Certificate',
  certificateValidUntil: 'Valid until {date}',
  /** A licence whose PEM block type is unknown. */
  pemFallback: 'PEM',
  licenceFile: 'Licence file',
  licenceFileHint: 'A .pem file (certificate or key in PEM format).',
  chooseLicenceFile: 'Choose .pem file',
  /** The web's own check, made before anything is sent. */
  pemOnly: 'Please choose a .pem file.',
  upload: 'Upload',

  // Push Notifications.
  mobilePlatformsHeading: 'Mobile platforms',
  loadingMobilePlatforms: 'Loading mobile platforms',
  noMobilePlatforms: 'No mobile platforms yet. Create one for each app store your app ships in.',
  createPlatform: 'Create platform',
  columnPlatform: 'Platform',
  columnName: 'Name',
  columnDetails: 'Details',
  platformProject: 'Project {project}',
  platformCertificateExpires: 'Certificate expires {date}',
  // Push Notifications: the switches and the platform dialogs.
  loadingPushSwitches: 'Loading push switches',
  mobilePush: 'Mobile push notifications',
  mobilePushHint: 'Send notifications to the phones of end users for the events switched on below.',
  /** The group of per-event switches, named for a screen reader. */
  pushEvents: 'Events',
  pushEventsNeedMaster: 'Turn on mobile push notifications to choose the events.',
  createPlatformTitle: 'Create mobile platform',
  /** A platform choice: its store name and its type, e.g. "Google (FCM) — GCM". */
  platformOption: '{label} — {platform}',
  apiKey: 'API key',
  apiKeyHint:
    'The Firebase service-account JSON file (FCM HTTP v1): project_id, client_email and private_key.',
  sslCertificate: 'SSL certificate',
  sslCertificateHint:
    'The Apple Push Notification service certificate, PEM (-----BEGIN CERTIFICATE-----).',
  certificatePrivateKeyHint: "The certificate's private key, PEM.",
  create: 'Create',
  deletePlatformTitle: 'Delete mobile platform',
  deletePlatformConfirm:
    'Delete {label} ({name})? Phones registered on it stop receiving notifications until a new platform is created and they register again.',

  // Privacy Policy and Terms: one section per document, `{document}` being its title.
  privacyTermsIntro:
    'Each document is published at a public address and shown on the page the sign-in page links to. HTML is shown in a sandbox: scripts never run.',
  privacyPolicy: 'Privacy Policy',
  termsOfUse: 'Terms of Use',
  publicPage: 'Public page',
  noDocument:
    "No {document} yet. Until you add one, the sign-in page's {document} link says none has been published.",
  add: 'Add',
  documentContent: '{document} (HTML or plain text)',

  // Upgrade APIs: the button's text is the tab's (LABELS.tabUpgradeApis).
  upgradeApisIntro:
    "Run this after upgrading Fleetdeck. It applies any database migrations the new version brings and tells every server instance to reload the settings it keeps in memory (push notification switches and platforms, end users' automations); other settings are read fresh on every request.",
  apisUpgraded: 'APIs upgraded',

  // MFA Configurations: `{pool}` is the contract's name of the Email & Phone User Pool.
  mfaIntro: 'Turn on a second sign-in step for your account: a code texted to your phone.',
  mfaNeedsPhonePool: 'Phone numbers belong to the {pool}. Settings here apply to your own account.',

  // Email Configurations: the template form and the sender addresses.
  templateType: 'Template type',
  subject: 'Subject',
  fromEmail: 'From email',
  fromEmailHint: 'Only verified sender addresses can be chosen.',
  fromUserName: 'From user name',
  templateBody: 'Template body',
  placeholders: 'Placeholders (click to insert at the cursor)',
  insertPlaceholder: 'Insert {placeholder}',
  saveTemplate: 'Save template',
  templateDefaultNote: 'No template saved yet: this is the default Fleetdeck sends.',
  loadingTemplate: 'Loading the email template',
  senders: 'Sender addresses',
  sendersHint:
    'An address becomes a verified sender when someone who reads its mailbox enters the 6-digit code Fleetdeck sends to it.',
  newSender: 'New sender address',
  newSenderPlaceholder: 'invites@example.com',
  sendCode: 'Send code',
  codeSentTo: 'Code sent to {email}',
  verify: 'Verify',
  cancel: 'Cancel',
  senderVerified: 'Verified',
  senderPending: 'Waiting for code',
  senderDeploymentDefault: 'Deployment default',
  removeSender: 'Remove {email}',
  enterCode: 'Enter code',
  tryAgain: 'Try again',
} as const;
