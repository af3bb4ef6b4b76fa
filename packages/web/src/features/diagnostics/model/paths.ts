/** The diagnostics routes (access §2). Node ids are encoded, since they come from devices. */
export const DIAGNOSTICS_PATH = '/home/diagnostics';

export type DiagnosticsTab = 'report' | 'metrics' | 'paramvalues';

export const DIAGNOSTICS_TABS: readonly DiagnosticsTab[] = ['report', 'metrics', 'paramvalues'];

export function diagnosticsTabPath(tab: DiagnosticsTab, nodeId: string): string {
  return `${DIAGNOSTICS_PATH}/${tab}/${encodeURIComponent(nodeId)}`;
}

export function multigraphPath(nodeId: string): string {
  return `${DIAGNOSTICS_PATH}/multigraph1/${encodeURIComponent(nodeId)}`;
}

/** The tab a pathname shows (matched case-insensitively, like the routes), or null. */
export function tabOfPath(pathname: string): DiagnosticsTab | null {
  const segment = pathname.toLowerCase().split('/')[3];
  return DIAGNOSTICS_TABS.find((tab) => tab === segment) ?? null;
}
