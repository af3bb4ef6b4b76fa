import type { DiagnosticsMessage, ParamTreeNode } from '@fleetdeck/contract';
import type { Transaction } from 'kysely';
import type {
  Database,
  DiagLogsTable,
  DiagMetricMetaTable,
  DiagMetricPointsTable,
  DiagParamMetaTable,
  DiagParamValuesTable,
} from '../../db/schema.js';
import {
  existingNodeIds,
  insertLogs,
  insertMetricPoints,
  insertParamValues,
  upsertMetricMeta,
  upsertNodeInfo,
  upsertParamMeta,
  type NodeInfoUpdate,
} from '../../repositories/diagnostics.repository.js';

/** One decoded `diagnostics/from-node` message (JSON or an ESP Insights frame). */
export interface DiagnosticsReport {
  message: DiagnosticsMessage;
  /** Indexes into `message.logs` of entries that carry raw addresses only (no ELF to read them). */
  elfMissing: ReadonlySet<number>;
}

/** A report as the ingest service queued it. */
export interface DiagnosticsItem {
  nodeId: string;
  report: DiagnosticsReport;
  /** Epoch milliseconds of receipt. */
  at: number;
}

/** Flattens the variables tree into (id, label, folder path, position, values). */
function flattenParams(
  nodes: ParamTreeNode[],
  path: string[],
  out: Array<{ node: ParamTreeNode; path: string }>,
): void {
  for (const node of nodes) {
    if (node.type === 'folder') flattenParams(node.children ?? [], [...path, node.label], out);
    else if (node.id) out.push({ node, path: path.join('/') });
  }
}

/**
 * Writes a batch of diagnostics inside the ingest transaction (docs/ARCHITECTURE.md, Diagnostics):
 * node info, logs, metric descriptions and points, the variables tree and its values. Reports of
 * nodes that are not registered are dropped. Every report refreshes the node's info row, which is
 * what makes the insights API answer for that node.
 */
export async function applyDiagnostics(
  trx: Transaction<Database>,
  items: DiagnosticsItem[],
): Promise<void> {
  const known = await existingNodeIds(trx, [...new Set(items.map((item) => item.nodeId))]);
  const info = new Map<string, NodeInfoUpdate>();
  const logs: Omit<DiagLogsTable, 'id'>[] = [];
  const described = new Map<string, DiagMetricMetaTable>();
  const bare = new Map<string, DiagMetricMetaTable>();
  const points: DiagMetricPointsTable[] = [];
  const paramMeta = new Map<string, DiagParamMetaTable>();
  const paramValues: DiagParamValuesTable[] = [];

  for (const { nodeId, report, at } of items) {
    if (!known.has(nodeId)) continue;
    const { message } = report;
    const seen = Math.floor(at / 1000);
    const entry = info.get(nodeId) ?? { node_id: nodeId, last_seen: seen };
    entry.last_seen = Math.max(entry.last_seen, seen);
    if (message.info) {
      entry.project = message.info.project ?? entry.project;
      entry.app_version = message.info.app_version ?? entry.app_version;
      entry.chip = message.info.chip ?? entry.chip;
      entry.sha256 = message.info.sha256 ?? entry.sha256;
    }
    info.set(nodeId, entry);

    (message.logs ?? []).forEach((log, index) => {
      if (log.type === 'reboot') {
        entry.last_boot = Math.max(entry.last_boot ?? 0, log.ts);
        if (log.data.app_version && !message.info?.app_version)
          entry.app_version = log.data.app_version;
      }
      logs.push({
        node_id: nodeId,
        ts: log.ts,
        type: log.type,
        tag: log.tag.slice(0, 64),
        message: log.message,
        task: log.task ?? null,
        sha256: message.info?.sha256 ?? null,
        elf_missing: report.elfMissing.has(index) ? 1 : 0,
        data: log.data === undefined ? null : JSON.stringify(log.data),
      });
    });

    for (const metric of message.metrics ?? []) {
      const key = `${nodeId}\n${metric.id}`;
      const row = {
        node_id: nodeId,
        metric_id: metric.id,
        label: metric.label ?? metric.id,
        unit: metric.unit ?? '',
        path: metric.path ?? null,
      };
      if (metric.label !== undefined || metric.unit !== undefined) described.set(key, row);
      else if (!described.has(key)) bare.set(key, row);
      for (const point of metric.points)
        points.push({ node_id: nodeId, metric_id: metric.id, ts: point.ts, val: point.val });
    }

    const params: Array<{ node: ParamTreeNode; path: string }> = [];
    flattenParams(message.variables ?? [], [], params);
    params.forEach(({ node, path }, position) => {
      const id = node.id ?? '';
      paramMeta.set(`${nodeId}\n${id}`, {
        node_id: nodeId,
        param_id: id,
        label: node.label,
        path,
        position,
      });
      for (const value of node.values?.data ?? [])
        paramValues.push({
          node_id: nodeId,
          param_id: id,
          ts: value.ts,
          val: JSON.stringify(value.val),
        });
    });
  }

  await upsertNodeInfo(trx, [...info.values()]);
  await insertLogs(trx, logs);
  for (const key of described.keys()) bare.delete(key);
  await upsertMetricMeta(trx, [...described.values()], [...bare.values()]);
  await insertMetricPoints(
    trx,
    dedupe(points, (p) => `${p.node_id}\n${p.metric_id}\n${p.ts}`),
  );
  await upsertParamMeta(trx, [...paramMeta.values()]);
  await insertParamValues(
    trx,
    dedupe(paramValues, (p) => `${p.node_id}\n${p.param_id}\n${p.ts}`),
  );
}

/** Keeps the first row of each key (one INSERT may not hit the same key twice on PostgreSQL). */
function dedupe<T>(rows: T[], key: (row: T) => string): T[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const k = key(row);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
