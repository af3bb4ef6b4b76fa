// B6's peer: a minimal Fastify + better-sqlite3 list route over the same database file the
// benchmark gave Fleetdeck. It serves the same paths (`/v1/admin/nodes?<filter>&start_id=…&
// num_records=…`) with the same keyset query on the same indexes, but without what the product
// adds around it: no authentication, no exact total, no presenter, no security headers, no
// logging. Started by node-list.mjs with `fork`; it sends `{ port }` once it listens.
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const file = process.env.BARE_DB_FILE;
if (!file) throw new Error('BARE_DB_FILE is required');
const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('cache_size = -65536');

const COLUMNS =
  'node_id, name, type, model, fw_version, tags, registered_at, activated_at, connected, ' +
  'conn_changed_at, config_updated_at, last_activity_at, primary_user_id';

/** One prepared statement per filter shape, as a minimal route would keep them. */
const statements = new Map();
function statement(clauses) {
  const where = clauses.length ? ` where ${clauses.join(' and ')}` : '';
  const text = `select ${COLUMNS} from nodes${where} order by node_id limit ?`;
  let prepared = statements.get(text);
  if (!prepared) {
    prepared = db.prepare(text);
    statements.set(text, prepared);
  }
  return prepared;
}

const STATUS = {
  online: 'connected = 1',
  offline: 'connected = 0',
  not_activated: 'connected is null',
};

const app = Fastify({ logger: false });
app.get('/v1/admin/nodes', async (request, reply) => {
  const q = request.query;
  const clauses = [];
  const values = [];
  if (q.node_status) clauses.push(STATUS[q.node_status]);
  for (const [param, column] of [
    ['type', 'type'],
    ['model', 'model'],
    ['fw_version', 'fw_version'],
  ]) {
    if (q[param] !== undefined) {
      clauses.push(`${column} = ?`);
      values.push(q[param]);
    }
  }
  if (q.city !== undefined) {
    clauses.push('city = ?');
    values.push(q.city.trim().toLowerCase());
  }
  if (q.serial !== undefined) {
    clauses.push('serial = ?');
    values.push(q.serial.trim().toUpperCase());
  }
  if (q.tags !== undefined) {
    clauses.push('node_id in (select node_id from node_tags where tag = ?)');
    values.push(q.tags);
  }
  if (q.search) {
    const last = q.search.charCodeAt(q.search.length - 1);
    clauses.push('node_id >= ?', 'node_id < ?');
    values.push(q.search, q.search.slice(0, -1) + String.fromCharCode(last + 1));
  }
  if (q.start_id) {
    clauses.push('node_id >= ?');
    values.push(q.start_id);
  }
  const limit = Number(q.num_records ?? 10);
  const rows = statement(clauses).all(...values, limit + 1);
  const next = rows.length > limit ? rows.pop().node_id : undefined;
  reply.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify(next ? { node_info: rows, next_id: next } : { node_info: rows });
});

// A group's page of nodes: the members' (group_id, node_id) key, one page of it.
app.get('/v1/admin/node_group', async (request, reply) => {
  const q = request.query;
  const from = q.start_id ? ' and node_id >= ?' : '';
  const values = q.start_id ? [q.group_id, q.start_id] : [q.group_id];
  const limit = Number(q.num_records ?? 10);
  const rows = statement([
    `node_id in (select node_id from node_group_members where group_id = ?${from} order by node_id limit ${limit + 1})`,
  ]).all(...values, limit + 1);
  const next = rows.length > limit ? rows.pop().node_id : undefined;
  reply.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify({ groups: [{ group_id: q.group_id, node_details: rows, next_id: next }] });
});

await app.listen({ host: '127.0.0.1', port: 0 });
process.send?.({ port: app.server.address().port });
process.on('SIGTERM', () => {
  void app.close().then(() => {
    db.close();
    process.exit(0);
  });
});
