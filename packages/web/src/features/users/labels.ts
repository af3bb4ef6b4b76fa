/**
 * Screen text of the user-administration feature that `@fleetdeck/contract` does not hold. The
 * first block is quoted from the spec (fleet-management §2); the rest is this app's own wording.
 */
export const USER_LABELS = {
  // --- Quoted by the spec ---
  heading: 'User Registration',
  columnUserName: 'User Name',
  columnUserId: 'User Id',
  columnRole: 'Role',
  addUser: 'Add User',
  ok: 'Ok',

  // --- This app's wording ---
  detailsHeading: 'User details',
  backToList: 'Back to User Registration',
  search: 'Search users',
  searchPlaceholder: 'User name, id or role',
  refresh: 'Refresh',
  tryAgain: 'Try again',
  firstName: 'First name',
  lastName: 'Last name',
  city: 'Address (city)',
  phoneNumber: 'Phone number',
  phoneHint: '10 digits',
  email: 'Email',
  role: 'Role',
  geoRegion: 'Geo region',
  registrationDate: 'Registration date',
  create: 'Create user',
  cancel: 'Cancel',
  inviteHint:
    'The new user receives the invitation e-mail from the Email Configurations template and chooses a password from it.',
  createFailed: 'Could not create the user',
  failureRole: 'Role: {role}',
  save: 'Save changes',
  saved: 'User updated successfully.',
  deleteUser: 'Delete user',
  deleteTitle: 'Delete user',
  deleteIntro:
    'Deleting {user} ends their sessions and removes their access. A 6-digit code will be sent to your e-mail address ({admin}) to confirm.',
  sendCode: 'Send verification code',
  codeSent: 'We sent a 6-digit code to {admin}. Enter it to delete {user}.',
  codeLabel: 'Verification code',
  resendCode: 'Send a new code',
  confirmDelete: 'Delete',
  superAdminBadge: 'Super admin',
  invitePending: 'Invitation sent · no password yet',
  passwordSet: 'Active',
  status: 'Status',
  created: 'Created',
  notFound: 'This user does not exist or was deleted.',
  superAdminNoDelete: 'Super admins cannot be deleted here.',
  cannotDeleteSelf: 'You cannot delete your own account.',
  noChanges: 'No changes to save.',
  showing: 'Showing {from}–{to} of {total}',
} as const;
