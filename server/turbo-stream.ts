/**
 * React Router's data-request encoding (its vendored turbo-stream v2), for the values a listing's
 * loaders return: plain objects, arrays, strings, numbers, booleans, null, undefined and dates.
 * React Router does not export its encoder. This one follows it step for step, so the same value
 * gives the same bytes (tests/e2e/listing-data.test.ts compares the two answers). Anything else
 * (a promise, a Map, a class instance, an error) is not encoded here: `encodeListingData` returns
 * null and the request goes to React Router.
 */

const HOLE = -1;
const NAN = -2;
const NEGATIVE_INFINITY = -3;
const NEGATIVE_ZERO = -4;
const NULL = -5;
const POSITIVE_INFINITY = -6;
const UNDEFINED = -7;

class NotPlain extends Error {}

/** The special values' codes, or null for a value that gets an index of its own. */
function specialCode(value: unknown): number | null {
  if (value === undefined) return UNDEFINED;
  if (value === null) return NULL;
  if (Number.isNaN(value)) return NAN;
  if (value === Number.POSITIVE_INFINITY) return POSITIVE_INFINITY;
  if (value === Number.NEGATIVE_INFINITY) return NEGATIVE_INFINITY;
  if (value === 0 && 1 / value < 0) return NEGATIVE_ZERO;
  return null;
}

/** The first (and, without promises, only) line React Router sends for `input`, newline included. */
export function encodeListingData(input: unknown): string | null {
  const indices = new Map<unknown, number>();
  const str: string[] = [];
  let next = 0;
  const top = specialCode(input);
  if (top !== null) return `${top}\n`;
  const stack: [unknown, number][] = [];
  // As the original: an index is given when a value is first met, its text written when it is
  // taken off the stack (last in, first out), and a value met again is its first index (except
  // index 0, which the original treats as unseen).
  const flattenValue = (value: unknown): number => {
    const existing = indices.get(value);
    if (existing) return existing;
    const code = specialCode(value);
    if (code !== null) return code;
    const index = next++;
    indices.set(value, index);
    stack.push([value, index]);
    return index;
  };
  const partsForObj = (obj: Record<string, unknown>) =>
    Object.keys(obj)
      .map((k) => `"_${flattenValue(k)}":${flattenValue(obj[k])}`)
      .join(",");
  flattenValue(input);
  try {
    while (stack.length > 0) {
      const [value, index] = stack.pop()!;
      switch (typeof value) {
        case "boolean":
        case "number":
        case "string":
          str[index] = JSON.stringify(value);
          break;
        case "object": {
          if (Array.isArray(value)) {
            let result = "[";
            for (let i = 0; i < value.length; i++) result += (i ? "," : "") + (i in value ? flattenValue(value[i]) : HOLE);
            str[index] = `${result}]`;
          } else if (value instanceof Date) {
            const time = value.getTime();
            str[index] = `["D",${Number.isNaN(time) ? JSON.stringify("invalid") : time}]`;
          } else if (value !== null && Object.getPrototypeOf(value) === Object.prototype) {
            str[index] = `{${partsForObj(value as Record<string, unknown>)}}`;
          } else {
            throw new NotPlain();
          }
          break;
        }
        default:
          throw new NotPlain();
      }
    }
  } catch (err) {
    if (err instanceof NotPlain) return null;
    throw err;
  }
  return `[${str.join(",")}]\n`;
}
