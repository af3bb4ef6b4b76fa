import type { NodeInfo } from '@fleetdeck/contract';
import { NODE_LABELS } from '../labels';
import { connectivityLabel } from './node-status';
import { locationOf, serialOf } from './node-tags';

/** A byte-order mark, so Excel reads the file as UTF-8 and shows non-ASCII text correctly. */
export const CSV_BOM = '\uFEFF';
/** RFC 4180 ends every record with CRLF. */
export const CSV_EOL = '\r\n';
export const CSV_MIME_TYPE = 'text/csv;charset=utf-8';

/**
 * One field, RFC 4180 style: quoted when it holds a comma, a double quote or a line break, with
 * inner quotes doubled. A field that a spreadsheet would run as a formula (=, +, -, @, tab or CR
 * first) is prefixed with an apostrophe: names and tags come from devices and API clients, and a
 * report opened in Excel must not execute them.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record, CRLF-terminated. */
export function csvRecord(fields: readonly string[]): string {
  return fields.map(csvField).join(',') + CSV_EOL;
}

/** The device report's columns, in order. */
export const NODE_CSV_COLUMNS = [
  NODE_LABELS.columnNodeId,
  NODE_LABELS.columnStatus,
  NODE_LABELS.columnLocation,
  NODE_LABELS.columnSerial,
  NODE_LABELS.columnVersion,
  NODE_LABELS.columnType,
  NODE_LABELS.columnModel,
  NODE_LABELS.columnName,
] as const;

/** The start of the file: the BOM and the header record. */
export function nodeCsvHeader(): string {
  return CSV_BOM + csvRecord(NODE_CSV_COLUMNS);
}

type CsvNode = Pick<
  NodeInfo,
  'node_id' | 'status' | 'tags' | 'fw_version' | 'type' | 'model' | 'name'
>;

/** One node as a record, in the order of NODE_CSV_COLUMNS. */
export function nodeCsvRecord(node: CsvNode): string {
  return csvRecord([
    node.node_id,
    connectivityLabel(node),
    locationOf(node.tags),
    serialOf(node.tags),
    node.fw_version,
    node.type,
    node.model,
    node.name,
  ]);
}
