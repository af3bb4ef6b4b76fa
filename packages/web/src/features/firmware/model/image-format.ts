import { BYTES_PER_MB } from '@fleetdeck/contract';

/** A size in bytes as megabytes (fleet-management §2, §9): bytes / 1048576 with 2 decimals. */
export function formatMegabytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0.00';
  return (bytes / BYTES_PER_MB).toFixed(2);
}
