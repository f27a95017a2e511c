import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Executor } from './executor';

/** The values a query is run with: one row of named values, or several rows with the same names. */
type QueryValues = Record<string, unknown> | readonly Record<string, unknown>[];

/** Stands where a value goes while the query is compiled; each run puts the value in its place. */
class Slot {
  constructor(
    readonly row: number,
    readonly name: string,
  ) {}
}

/** The names given a value (undefined means "not given", as Kysely treats it). */
function givenNames(row: Record<string, unknown>): string[] {
  const names: string[] = [];
  for (const name in row) if (row[name] !== undefined) names.push(name);
  return names;
}

function rowsOf(values: QueryValues): readonly Record<string, unknown>[] {
  return Array.isArray(values) ? values : [values as Record<string, unknown>];
}

/**
 * Queries differ in SQL only by which values are given, and by how many rows. (The same names
 * in another order make another shape, compiled once more: rare, and still right.)
 */
function shapeOf(values: QueryValues): string {
  const rows = rowsOf(values);
  return `${Array.isArray(values) ? rows.length : '-'}:${givenNames(rows[0] ?? {}).join(',')}`;
}

function slotsFor(values: QueryValues): QueryValues {
  const slotted = rowsOf(values).map((row, index) =>
    Object.fromEntries(givenNames(row).map((name) => [name, new Slot(index, name)])),
  );
  return Array.isArray(values) ? slotted : (slotted[0] as Record<string, unknown>);
}

/**
 * A query that is built and compiled once per database and shape of values, then run with new
 * values each time. Kysely otherwise builds and compiles every query anew on every run, which on
 * the hot paths (each submission, each request's session) costs more than the database takes
 * to run it. `build` must use each value only as a value (never to pick a column or an
 * operator), so that the SQL depends on which values are given and not on what they are.
 */
export function reusableQuery<Values extends object, Row>(
  build: (db: Executor, values: Values) => Compilable<Row>,
): (db: Executor, values: Values) => Promise<QueryResult<Row>> {
  // Keyed by the adapter, which a database and all its transactions share: one dialect's SQL each.
  const compiledByDatabase = new WeakMap<object, Map<string, CompiledQuery<Row>>>();
  return (db, values) => {
    const adapter = db.getExecutor().adapter;
    let compiled = compiledByDatabase.get(adapter);
    if (!compiled) {
      compiled = new Map();
      compiledByDatabase.set(adapter, compiled);
    }
    const given = values as QueryValues;
    const shape = shapeOf(given);
    let query = compiled.get(shape);
    if (!query) {
      query = build(db, slotsFor(given) as Values).compile();
      compiled.set(shape, query);
    }
    const rows = rowsOf(given);
    const parameters = query.parameters.map((parameter) =>
      parameter instanceof Slot ? rows[parameter.row]?.[parameter.name] : parameter,
    );
    return db.executeQuery<Row>({ ...query, parameters });
  };
}
