/**
 * One product, one line (docs/rules/cart-and-checkout.md, One product, one line). A product id is
 * a UUID, which PostgreSQL reads in any letter case: read as typed, one product could pass as two
 * lines, each judged alone against its stock and the most a line may hold. So every id is put in
 * one form before anything is checked, and the lines of one product become one line.
 */

/** The one form of a product id: trimmed, lower case (PostgreSQL's own spelling of a UUID). */
export const canonicalProductId = (id: string) => id.trim().toLowerCase();

/**
 * The lines with canonical ids, those of one product merged into the first of them with the
 * quantities added up; the order of first appearance is kept. The sum may pass the most a line
 * may hold: judging it is the caller's.
 */
export function mergeCartLines<T extends { id: string; quantity: number }>(lines: readonly T[]): T[] {
  const merged = new Map<string, T>();
  for (const line of lines) {
    const id = canonicalProductId(line.id);
    const seen = merged.get(id);
    merged.set(id, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line, id });
  }
  return [...merged.values()];
}
