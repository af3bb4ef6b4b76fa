/**
 * Screen text of the fault screens (access §2 Fault screens) that `@fleetdeck/contract` does not
 * hold. The first block is quoted from the spec and belongs in the contract's LABELS; the second
 * is this app's own wording for controls the spec names without words. Kept in one file so
 * moving them to the contract is one edit.
 */
export const FAULT_LABELS = {
  // --- Quoted by the spec ---
  faultListHeading: 'Active Fault List',
  faultHistoryHeading: 'Fault History',
  acFaults: 'AC Faults',
  refFaults: 'Ref Faults',
  washerFaults: 'Washer Faults',
  ac: 'AC',
  ref: 'Ref',
  washer: 'Washer',
  devicesWithFault: '{count} Devices With Fault {code}',
  columnErrorCode: 'Error Code',
  columnDisplayCode: 'Display Code',
  columnDescription: 'Description',
  columnNodeId: 'Node Device Id',
  columnDate: 'Date',
  prev: 'Prev',
  next: 'Next',

  // --- This app's wording ---
  deviceType: 'Device type',
  searchFault: 'Search by display code or device id',
  searchFaultPlaceholder: 'e.g. E5 or a device id',
  searchFaultHint: 'Exact match',
  searchProductId: 'Search by product id',
  searchProductIdPlaceholder: 'Product id (device id)',
  rowsPerPage: 'Rows per page',
  pageOf: 'Page {page} of {pages}',
  refresh: 'Refresh',
  tryAgain: 'Try again',
  backToFaultList: 'Back to Active Fault List',
  devicesLink: 'Devices reporting {code}',
  faultListCaption: 'Fault codes of {type}',
  faultListSubtitle:
    'The fault codes this appliance type can report. Open a code to see the devices reporting it now.',
  faultDevicesSubtitle: '{description}',
  faultHistorySubtitle:
    'Every fault code change reported by each device, newest first. Times are UTC.',
  breakdownHeading: 'Where this fault clusters',
  breakdownSubtitle: 'Devices reporting {code} now, by',
  breakdownFirmware: 'Firmware version',
  breakdownModel: 'Model',
  breakdownCity: 'City',
  breakdownOther: '{count} more',
  breakdownUnknown: 'Unknown',
  breakdownShare: '{count} of {total} ({percent})',
  breakdownInsight: '{percent} of these devices run {dimension} {value}.',
  breakdownEmpty: 'No device reports this fault now.',
  breakdownUnavailable: 'The breakdown could not be loaded.',
  faultImageHeading: 'Fault image',
  faultImageNone: 'No fault image remedies {code} yet.',
  faultImageOpen: 'Open {name}',
  faultImagePush: 'Push to devices',
  faultImageMore: '{count} more fault images for {code}',
  faultHistoryNodeType: 'Type',
  faultHistoryNoChanges: 'No fault reported yet.',
  faultHistoryCurrent: 'Current',
  faultHistoryCleared: 'Cleared',
  faultHistoryChanges: '{count} changes',
  faultHistoryChange: '1 change',
  unknownCode: 'Unknown code',
  utc: 'UTC',
} as const;
