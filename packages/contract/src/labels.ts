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
} as const;
