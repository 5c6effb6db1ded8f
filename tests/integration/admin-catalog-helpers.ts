import type { Db } from "~/server/platform/db/client.server";
import { requestAs } from "../factories/users";
import { args } from "./route-args";

export { args };

type Handler = (a: any) => Promise<unknown>;

/** What a loader or action answered (or threw): status and body, as the browser would see them. */
export async function settle(run: () => Promise<unknown>): Promise<{ status: number; body: any; location?: string | null }> {
  let out: unknown;
  try {
    out = await run();
  } catch (thrown) {
    out = thrown;
  }
  if (out instanceof Response) {
    return { status: out.status, body: await out.text(), location: out.headers.get("location") };
  }
  if (out && typeof out === "object" && (out as { type?: string }).type === "DataWithResponseInit") {
    const d = out as { data: unknown; init: ResponseInit | null };
    return { status: d.init?.status ?? 200, body: d.data };
  }
  return { status: 200, body: out };
}

/** Posts JSON to an action as `as` would (null: anonymous). */
export async function post(
  db: Db,
  action: Handler,
  as: { id: string } | null,
  path: string,
  body: unknown,
  params: Record<string, string> = {},
) {
  const request = await requestAs(db, as, path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return settle(() => action(args(request, params)));
}

/** Calls a loader as `as` would. */
export async function get(db: Db, loader: Handler, as: { id: string } | null, path: string, params: Record<string, string> = {}) {
  const request = await requestAs(db, as, path);
  return settle(() => loader(args(request, params)));
}

/** A valid Edit Product form, as the dialog sends it. */
export function productForm(overrides: Record<string, unknown> = {}) {
  return {
    name: "Linen Duvet Cover",
    sku: "",
    description: "Stone-washed linen.",
    imageUrl: "https://images.example.test/duvet.jpg",
    price: "129.50",
    originalPrice: "",
    unlimitedStock: false,
    stockQuantity: "12",
    category: "Bedding",
    active: true,
    featured: false,
    ...overrides,
  };
}
