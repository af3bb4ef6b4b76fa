/**
 * Screen labels the spec quotes (sidebar entries, the account menu, public pages), verbatim.
 * Messages (toasts, validation, errors) are in `messages.ts`.
 */
export const LABELS = {
  // Sidebar (access §2 "Sidebar and navigation"), in the spec's order.
  navHome: 'Home',
  navDevices: 'Devices',
  navDeviceCategories: 'Device Categories',
  navGraphs: 'Graphs',
  navFirmwareImages: 'Wifi Firmware Images',
  navOtaHistory: 'OTA History',
  navFaultList: 'Fault List',
  navActiveFaultList: 'Active Fault List',
  navGeoRegion: 'Search By Geo Region',
  navProductSerial: 'Search By Product Serial No.',
  navDeploymentSettings: 'Deployment Settings',
  navDeviceReports: 'DeviceReports',
  // Account Settings menu.
  accountSettings: 'Account Settings',
  userRegistration: 'User Registration',
  changePassword: 'Change Password',
  logout: 'Logout',
  // Public pages and User Settings (fleet-management §2).
  backToLogin: 'Back to Login',
  userSettings: 'User Settings',
  // Deployment Settings (access §2): the user-pool choice and the side tabs, verbatim.
  emailUserPool: 'Email User Pool',
  emailPhoneUserPool: 'Email & Phone User Pool',
  tabIdentityProviders: 'Identity Providers',
  tabEmailConfigurations: 'Email Configurations',
  tabCognitoConfigurations: 'Cognito Configurations',
  tabUpgradeApis: 'Upgrade APIs',
  tabPrivacyPolicyAndTerms: 'Privacy Policy and Terms',
  tabDeploymentDetails: 'Deployment Details',
  tabLicensingService: 'Licensing Service',
  tabPushNotifications: 'Push Notifications',
  tabBackupRestore: 'Backup & Restore',
  tabMfaConfigurations: 'MFA Configurations',
} as const;
