import { type Db, statementName } from "./client.server";

/**
 * A query drizzle builds once per database handle instead of on every call: building its SQL is
 * a good part of a short read's CPU. Only the statement is kept; every call still reads the rows
 * as they are now.
 *
 * A `name` also makes it a named statement, which each connection parses and plans once (the name
 * is dropped behind a transaction pooler, `statementName`). Give none (null) for a query whose best
 * plan depends on its values: after five runs PostgreSQL may settle a named statement on one
 * generic plan, and a LIMIT it cannot see can turn an index walk into a sort of every row.
 */
export function builtOnce<P>(name: string | null, build: (db: Db) => { prepare(name: string): P }): (db: Db) => P {
  const built = new WeakMap<Db, P>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) {
      // An empty name is pg's unnamed statement: parsed and planned with its values each time.
      statement = build(db).prepare(name ? (statementName(name) ?? "") : "");
      built.set(db, statement);
    }
    return statement;
  };
}
