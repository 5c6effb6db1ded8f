/**
 * The 1-based `page` search parameter of an admin list. Anything unusable is page 1; a huge one is
 * capped so the list's OFFSET stays a number PostgreSQL accepts.
 */
export function pageParam(params: URLSearchParams, max = 100_000): number {
  const page = Math.floor(Number(params.get("page") ?? "1"));
  return Number.isFinite(page) && page >= 1 ? Math.min(page, max) : 1;
}
