import type { FaultTypeKey } from './fault-types';

/** The Faults List (access §2), on one appliance kind when given (`?type=ref`). */
export function faultListPath(type?: FaultTypeKey): string {
  return type === undefined ? '/home/FaultList' : `/home/FaultList?type=${type}`;
}

/** The fault device list of one code (this app's route: the spec leaves it unnamed). */
export function faultDevicesPath(type: FaultTypeKey, code: string): string {
  return `/home/FaultList/${type}/${encodeURIComponent(code)}`;
}

/** Fault History (access §2), searching one product id (device id) when given. */
export function faultHistoryPath(productId?: string): string {
  return productId === undefined || productId === ''
    ? '/home/Faulthistory'
    : `/home/Faulthistory?search=${encodeURIComponent(productId)}`;
}

/** A fault image's details (access §2 Fault screens). */
export function faultImageDetailsPath(otaImageId: string): string {
  return `/home/fault-image-details/${encodeURIComponent(otaImageId)}`;
}
