const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A well-formed UUID: anything else is looked up as "not found", never sent to PostgreSQL (a 500). */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);
