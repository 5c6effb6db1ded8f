/** Calling the blog's route modules directly, as React Router would. */

export type Outcome<T = any> = { status: number; data: T; headers?: HeadersInit };

/** A loader/action result (plain value, `data()` or Response) as status + data. */
export async function outcome<T = any>(result: unknown): Promise<Outcome<T>> {
  const r = result as { type?: string; data?: unknown; init?: ResponseInit | null };
  if (r && typeof r === "object" && r.type === "DataWithResponseInit") {
    return { status: r.init?.status ?? 200, data: r.data as T, headers: r.init?.headers };
  }
  if (result instanceof Response) {
    const text = await result.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: result.status, data: data as T, headers: result.headers };
  }
  return { status: 200, data: result as T };
}

/** What a loader/action threw: a redirect Response, or a `data()` error such as the 403. */
export async function thrown(run: () => Promise<unknown>): Promise<{ status: number; location: string | null; data: unknown }> {
  try {
    await run();
  } catch (err) {
    if (err instanceof Response) return { status: err.status, location: err.headers.get("location"), data: null };
    const d = err as { type?: string; data?: unknown; init?: ResponseInit | null };
    if (d?.type === "DataWithResponseInit") return { status: d.init?.status ?? 500, location: null, data: d.data };
    throw err;
  }
  throw new Error("expected the call to throw a response");
}

export const args = (request: Request, params: Record<string, string> = {}) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ({ request, params, context: {} }) as any;
