import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The keyset condition of a newest-first list ordered by (time desc, id desc), starting at (and
 * including) the row `start`: `time < start.time or (time = start.time and id <= start.id)`.
 */
export function atOrOlderThan(
  timeColumn: string,
  idColumn: string,
  start: { time: number; id: string },
): RawBuilder<SqlBool> {
  const time = sql.ref(timeColumn);
  return sql<SqlBool>`(${time} < ${start.time} or (${time} = ${start.time} and ${sql.ref(idColumn)} <= ${start.id}))`;
}
