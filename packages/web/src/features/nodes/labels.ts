/**
 * Screen text of the node screens that `@fleetdeck/contract` does not hold yet. The first block is
 * quoted from the spec (fleet-management §2, access §2) and belongs in the contract's LABELS;
 * the second is this app's own wording for controls the spec names without words. Kept in one
 * file so moving them to the contract is one edit.
 */
export const NODE_LABELS = {
  // --- Quoted by the spec ---
  devicesHeading: 'Devices',
  columnNodeId: 'Node Device Id',
  columnStatus: 'Status',
  columnLocation: 'Location',
  columnSerial: 'Serial no.',
  columnVersion: 'Version',
  columnType: 'Type',
  columnModel: 'Model',
  columnName: 'Name',
  allDevices: 'All Devices',
  /** The Graphs screen's name for washing machines (shown as Washing Machine). */
  washerAlias: 'Washer',
  addToDeviceGroup: 'Add to Device Group',
  addToNodeGroup: 'Add to Node Group',
  manageDeviceHint: 'Select the device to add them in the Device Group.',
  serialPlaceholder: 'Enter Serial no.',
  downloadAllCsv: 'Download All CSV',
  prev: 'Prev',
  next: 'Next',
  pageOf: 'Page {page} of {pages}',
  /** Stands for the page count while the first page loads. */
  pagesLoading: '…',

  // --- This app's wording ---
  deviceReportsHeading: 'Device Reports',
  geoRegionHeading: 'Search By Geo Region',
  productSerialHeading: 'Search By Product Serial No.',
  graphsHeading: 'Graphs',
  deviceType: 'Device type',
  searchDeviceId: 'Search by device id',
  searchDeviceIdPlaceholder: 'Device id',
  searchProductId: 'Search by product id',
  searchProductIdPlaceholder: 'Product id',
  searchLocation: 'Location',
  searchLocationPlaceholder: 'City, e.g. Pune',
  searchSerial: 'Serial no.',
  search: 'Search',
  serialPrompt: 'Enter a serial number to find its device.',
  refresh: 'Refresh',
  tryAgain: 'Try again',
  rowsPerPage: 'Rows per page',
  selectAll: 'Select all loaded nodes',
  selectNode: 'Select {node}',
  selectedCount: '{count} selected',
  statusConnected: 'Online',
  statusDisconnected: 'Offline',
  statusUnknown: 'Unknown',
  statusFilter: 'Status: {status}',
  clearStatusFilter: 'Show every status',
  onlineOnly: 'Online',
  offlineOnly: 'Offline',
  csvProgress: 'Downloading {done} of {total} devices…',
  csvCancel: 'Cancel',
  csvFailed: 'The CSV download failed: {reason}',
  csvDone: 'Downloaded {count} devices.',
  nodeTableCaption: 'Nodes',
} as const;
