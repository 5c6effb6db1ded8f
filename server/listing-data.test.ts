import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { ServerBuild } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { listingData } from "./listing-data";

const servers: http.Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

type LoaderArgs = { request: Request };

/** A build with /shop's three routes; the shop route's loader is the test's. */
function buildWith(shopLoader: (args: LoaderArgs) => unknown): ServerBuild {
  const route = (id: string, parentId: string | undefined, path: string | undefined, loader: (args: LoaderArgs) => unknown) => ({
    [id]: { id, parentId, path, index: false, caseSensitive: undefined, module: { default: () => null, loader } },
  });
  return {
    routes: {
      ...route("root", undefined, "", () => ({ site: "Shop" })),
      ...route("routes/store/layout", "root", undefined, () => ({ returns: true })),
      ...route("routes/store/shop", "routes/store/layout", "shop", shopLoader),
    },
  } as unknown as ServerBuild;
}

async function listen(build: ServerBuild) {
  const app = express();
  app.use(listingData(build, () => ({})));
  app.use((_req, res) => void res.status(418).send("React Router"));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((r) => server.once("listening", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("listingData's loader request", () => {
  it("gives the loaders the page's URL and the visitor's headers, and answers itself", async () => {
    let seen: { url: string; cookie: string | null; language: string | null } | undefined;
    const base = await listen(
      buildWith(({ request }) => {
        seen = { url: request.url, cookie: request.headers.get("cookie"), language: request.headers.get("accept-language") };
        return { products: [] };
      }),
    );
    const res = await fetch(`${base}/shop.data?search=linen&_routes=routes%2Fstore%2Fshop`, {
      headers: { cookie: "theme=dark", "accept-language": "en-GB" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/x-script/);
    expect(seen).toEqual({ url: expect.stringMatching(/\/shop\?search=linen$/), cookie: "theme=dark", language: "en-GB" });
  });

  it("aborts the loaders' signal when the client leaves before the answer, and not once it is answered", async () => {
    let aborted: Promise<boolean> | undefined;
    let answered: AbortSignal | undefined;
    const base = await listen(
      buildWith(async ({ request }) => {
        if (request.url.includes("slow")) {
          const { signal } = request;
          aborted = new Promise((resolve) => {
            signal.addEventListener("abort", () => resolve(true));
            setTimeout(() => resolve(false), 5_000);
          });
          await aborted;
          return { products: [] };
        }
        answered = request.signal;
        return { products: [] };
      }),
    );

    const res = await fetch(`${base}/shop.data?search=quick`);
    expect(res.status).toBe(200);
    await res.text();
    expect(answered?.aborted).toBe(false);

    const gone = new AbortController();
    const leaving = fetch(`${base}/shop.data?search=slow`, { signal: gone.signal }).catch(() => "left");
    while (!aborted) await new Promise((r) => setTimeout(r, 10));
    gone.abort();
    expect(await leaving).toBe("left");
    expect(await aborted).toBe(true);
    // An answered request's signal stays as it was.
    expect(answered?.aborted).toBe(false);
  });
});
