import { type Db, statementName } from "../../platform/index.server";

/**
 * A quote's query as a named statement, built once per database handle: building drizzle's SQL
 * for every quote is a good part of a quote's own time, and a name lets each connection plan the
 * statement once (the name is dropped behind a transaction pooler, `statementName`). Only the
 * statement is kept: every call still reads the rows as they are now.
 */
export function namedStatement<P>(name: string, build: (db: Db) => { prepare(name: string): P }): (db: Db) => P {
  const built = new WeakMap<Db, P>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) {
      statement = build(db).prepare(statementName(name) ?? "");
      built.set(db, statement);
    }
    return statement;
  };
}
