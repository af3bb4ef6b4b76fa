import {
  DEFAULT_FAULT_CATALOGUES,
  ERROR_CODES,
  FAULT_CATALOGUE_NAME_BY_TYPE,
  FAULT_HISTORY_MAX_CHANGES,
  FAULT_PARAM_BY_TYPE,
  FaultCatalogueSchema,
  MESSAGES,
  NODE_TYPES,
  SERVER_MESSAGES,
  isFaultCatalogueName,
  type CommonCustomDataResponse,
  type FaultBreakdown,
  type FaultBreakdownQuery,
  type FaultDefinition,
  type FaultHistory,
  type FaultHistoryQuery,
  type FaultNode,
  type FaultNodesList,
  type FaultNodesQuery,
  type NodeType,
  type ParamByValueCount,
  type ParamByValueCountQuery,
  type ParamValueList,
  type ParamValueListQuery,
  type PutCommonCustomDataBody,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import {
  countByValue,
  countFaultNodesBy,
  countFaultNodesByCity,
  currentFaultsOf,
  deleteCustomData,
  findCustomData,
  latestChangesOf,
  listCurrentValues,
  listCustomData,
  listFaultNodes,
  listHistoryNodes,
  nodeFacts,
  saveCustomData,
  type FaultNodeFilter,
} from '../../repositories/fault.repository.js';
import { cityLabel, locationOf, parseStoredTags } from '../nodes/node-tags.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** The largest JSON document one common_custom_data name may hold (RainMaker: 300 KB). */
export const CUSTOM_DATA_MAX_BYTES = 300 * 1024;

/** Opaque page tokens: base64url of the last node id of the page. */
const encodeToken = (nodeId: string) => Buffer.from(nodeId, 'utf8').toString('base64url');
function decodeToken(token: string | undefined): string | undefined {
  if (token === undefined || token === '') return undefined;
  if (!/^[A-Za-z0-9_-]+$/.test(token))
    throw badRequest(SERVER_MESSAGES.invalidQueryParam, ERROR_CODES.invalidQueryParam);
  return Buffer.from(token, 'base64url').toString('utf8');
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Fault catalogues (common_custom_data), the insights value list and distribution, and
 * Fleetdeck's fault device list, breakdown and history. Writes of current faults and history
 * happen in the ingest batch (recordFaultReadings), not here.
 */
export class FaultService {
  constructor(private readonly db: Kysely<Database>) {}

  /** GET common_custom_data: one entry (`{name, value, data: [entry]}`) or all (`{data}`). */
  async getCustomData(name: string | undefined): Promise<CommonCustomDataResponse> {
    if (name === undefined) {
      const rows = await listCustomData(this.db);
      return {
        data: rows.map((row) => ({ name: row.name, value: JSON.parse(row.value) as unknown })),
      };
    }
    const row = await findCustomData(this.db, name);
    if (!row)
      throw badRequest(SERVER_MESSAGES.customDataNameNotFound, ERROR_CODES.customDataNameNotFound);
    const value: unknown = JSON.parse(row.value);
    return { name, value, data: [{ name, value }] };
  }

  /**
   * PUT common_custom_data. A fault catalogue (validated by the contract schema) replaces the
   * stored one and cannot be deleted; any other name: `null` deletes, an object merges key-wise
   * into a stored object (`null` keys delete), anything else replaces.
   */
  async putCustomData(
    body: PutCommonCustomDataBody,
    userId: string,
  ): Promise<{ deleted: boolean }> {
    const at = Math.floor(Date.now() / 1000);
    if (isFaultCatalogueName(body.name)) {
      if (body.value === null || body.value === undefined)
        throw badRequest(SERVER_MESSAGES.faultCatalogueNotDeletable);
      const catalogue = FaultCatalogueSchema.parse(body.value);
      await saveCustomData(this.db, {
        name: body.name,
        value: JSON.stringify(catalogue),
        at,
        by: userId,
      });
      return { deleted: false };
    }
    if (body.value === null || body.value === undefined) {
      await deleteCustomData(this.db, body.name);
      return { deleted: true };
    }
    return transactionWithRetry(this.db, async (trx) => {
      let value: unknown = body.value;
      const stored = await findCustomData(trx, body.name);
      const previous: unknown = stored ? JSON.parse(stored.value) : undefined;
      if (isPlainObject(value) && isPlainObject(previous)) {
        const merged: Record<string, unknown> = { ...previous };
        for (const [key, item] of Object.entries(value)) {
          if (item === null) delete merged[key];
          else merged[key] = item;
        }
        value = merged;
      }
      const text = JSON.stringify(value);
      if (Buffer.byteLength(text, 'utf8') > CUSTOM_DATA_MAX_BYTES)
        throw badRequest(SERVER_MESSAGES.customDataTooLarge, ERROR_CODES.customDataInvalid);
      await saveCustomData(trx, { name: body.name, value: text, at, by: userId });
      return { deleted: false };
    });
  }

  /** The stored catalogue of a type (the default one if the stored value is unreadable). */
  async catalogueOf(type: NodeType): Promise<FaultDefinition[]> {
    const row = await findCustomData(this.db, FAULT_CATALOGUE_NAME_BY_TYPE[type]);
    const parsed = row ? FaultCatalogueSchema.safeParse(JSON.parse(row.value)) : undefined;
    return parsed?.success ? parsed.data : [...DEFAULT_FAULT_CATALOGUES[type]];
  }

  /** insights param/value/list: current values by node id, keyset paged. */
  async valueList(query: ParamValueListQuery): Promise<ParamValueList> {
    const after = decodeToken(query.pagetoken);
    const { rows, total } = await listCurrentValues(
      this.db,
      { param: query.dimensionname, include: query.include, exclude: query.exclude },
      after,
      query.limit,
    );
    const last = rows.at(-1);
    // A full page may be the last one; the next call then answers an empty list without a token.
    return {
      list: rows.map((row) => ({ node_id: row.node_id, value: row.value, timestamp: row.since })),
      totalnodes: total,
      ...(last && rows.length === query.limit ? { pagetoken: encodeToken(last.node_id) } : {}),
    };
  }

  /** insights param/byvalue/count: nodes per value, most frequent first, paged by position. */
  async byValueCount(query: ParamByValueCountQuery): Promise<ParamByValueCount> {
    const all = await countByValue(this.db, query.dimensionname, query.exclude);
    const offsetText = decodeToken(query.pagetoken);
    const offset = offsetText === undefined ? 0 : Number(offsetText);
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw badRequest(SERVER_MESSAGES.invalidQueryParam, ERROR_CODES.invalidQueryParam);
    const page = all.slice(offset, offset + query.limit);
    const next = offset + page.length;
    return {
      distribution: page,
      totalnodes: all.reduce((sum, bucket) => sum + bucket.count, 0),
      ...(next < all.length ? { pagetoken: encodeToken(String(next)) } : {}),
    };
  }

  /**
   * Resolves the code and search of the fault views against the type's catalogue: a code may be
   * given as err_code or disp_code; a search that is a code narrows to it, else it is a node id.
   */
  private async filterOf(
    type: NodeType,
    code: string | undefined,
    search: string | undefined,
  ): Promise<{ filter: FaultNodeFilter; catalogue: Map<string, FaultDefinition> } | undefined> {
    const definitions = await this.catalogueOf(type);
    const catalogue = new Map(definitions.map((entry) => [entry.err_code, entry]));
    const resolve = (text: string) =>
      catalogue.has(text)
        ? text
        : (definitions.find((entry) => entry.disp_code === text)?.err_code ?? undefined);
    const filter: FaultNodeFilter = { type, param: FAULT_PARAM_BY_TYPE[type] };
    if (code !== undefined) filter.value = resolve(code) ?? code;
    if (search !== undefined) {
      const searched = resolve(search);
      if (searched !== undefined) {
        if (filter.value !== undefined && filter.value !== searched) return undefined;
        filter.value = searched;
      } else filter.nodeId = search;
    }
    return { filter, catalogue };
  }

  /** The fault device list: '{count} Devices With Fault {code}'. */
  async faultNodes(query: FaultNodesQuery): Promise<FaultNodesList> {
    const resolved = await this.filterOf(query.type, query.code, query.search);
    if (!resolved) return { count: 0, nodes: [] };
    const { rows, total } = await listFaultNodes(
      this.db,
      resolved.filter,
      query.start_id,
      query.num_records,
    );
    const next = rows.length > query.num_records ? rows[query.num_records]?.node_id : undefined;
    const nodes: FaultNode[] = rows.slice(0, query.num_records).map((row) => {
      const definition = resolved.catalogue.get(row.value);
      return {
        node_id: row.node_id,
        err_code: row.value,
        disp_code: definition?.disp_code ?? '',
        description: definition?.description ?? '',
        timestamp: row.since,
      };
    });
    return { count: total, nodes, ...(next !== undefined ? { next } : {}) };
  }

  /** The affected devices by firmware version, model and city. */
  async breakdown(query: FaultBreakdownQuery): Promise<FaultBreakdown> {
    const resolved = await this.filterOf(query.type, query.code, undefined);
    const filter = resolved?.filter ?? { type: query.type, param: FAULT_PARAM_BY_TYPE[query.type] };
    const [byFw, byModel, byCity] = await Promise.all([
      countFaultNodesBy(this.db, filter, 'fw_version'),
      countFaultNodesBy(this.db, filter, 'model'),
      countFaultNodesByCity(this.db, filter),
    ]);
    return {
      total: byFw.reduce((sum, bucket) => sum + bucket.count, 0),
      by_fw_version: byFw,
      by_model: byModel,
      // Grouped by the lower-case key, shown as the spec's region list or the tags spell it.
      by_city: byCity.map((bucket) => ({
        value: cityLabel(bucket.value, locationOf(parseStoredTags(bucket.sampleTags))),
        count: bucket.count,
      })),
    };
  }

  /** Nodes with their fault changes, newest first; none is a 404 'Nodes not found.'. */
  async history(query: FaultHistoryQuery): Promise<FaultHistory> {
    const { nodeIds, total } = await listHistoryNodes(
      this.db,
      { nodeId: query.node_id, prefix: query.search },
      query.start_id,
      query.num_records,
    );
    const pageIds = nodeIds.slice(0, query.num_records);
    if (pageIds.length === 0) throw notFound(MESSAGES.nodesNotFound);
    const [facts, current, changes] = await Promise.all([
      nodeFacts(this.db, pageIds),
      currentFaultsOf(this.db, pageIds),
      latestChangesOf(this.db, pageIds, FAULT_HISTORY_MAX_CHANGES),
    ]);
    const catalogues = new Map<string, Map<string, FaultDefinition>>();
    for (const type of NODE_TYPES)
      catalogues.set(
        FAULT_PARAM_BY_TYPE[type],
        new Map((await this.catalogueOf(type)).map((entry) => [entry.err_code, entry])),
      );
    const factsById = new Map(facts.map((row) => [row.node_id, row]));
    const currentById = new Map(current.map((row) => [row.node_id, row]));
    const nodes = pageIds.map((nodeId) => {
      const fact = factsById.get(nodeId);
      const type = fact?.type ?? '';
      const param = NODE_TYPES.includes(type as NodeType)
        ? FAULT_PARAM_BY_TYPE[type as NodeType]
        : '';
      const catalogue = catalogues.get(param) ?? new Map<string, FaultDefinition>();
      const now = currentById.get(nodeId);
      const nowDefinition = now ? catalogues.get(now.param)?.get(now.value) : undefined;
      return {
        node_id: nodeId,
        type,
        model: fact?.model ?? '',
        fw_version: fact?.fw_version ?? '',
        city: fact ? cityLabel(fact.city, locationOf(parseStoredTags(fact.tags))) : '',
        current: now
          ? {
              err_code: now.value,
              disp_code: nowDefinition?.disp_code ?? '',
              description: nowDefinition?.description ?? '',
              timestamp: now.since,
            }
          : null,
        faults: (changes.get(nodeId) ?? []).map((change) => {
          const definition = catalogue.get(change.value);
          return {
            err_code: change.value,
            disp_code: definition?.disp_code ?? '',
            description: definition?.description ?? '',
            cleared: change.value === '',
            timestamp: change.timestamp,
          };
        }),
      };
    });
    const next = nodeIds.length > query.num_records ? nodeIds[query.num_records] : undefined;
    return { nodes, total, ...(next !== undefined ? { next_id: next } : {}) };
  }
}
