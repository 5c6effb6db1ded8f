import { EnvError, type Env } from "../env.server";

/**
 * Purging a CDN by tag (docs/decisions/0037): one adapter per kind of cache, chosen by
 * `CDN_PURGE`. Each takes the tags the change log names (`product:<id>`, `listing`…, the same
 * names the storefront's responses carry in Surrogate-Key and Cache-Tag) and throws when the CDN
 * did not take them, so the purge job is tried again.
 */
export type CdnPurger = {
  name: "fastly" | "cloudflare" | "varnish";
  /** Largest number of tags one request carries: the job sends more in several requests. */
  batch: number;
  purge: (tags: string[]) => Promise<void>;
};

/** A CDN that does not answer in this time is a failed try (retried by the job queue). */
const TIMEOUT_MS = 10_000;

export class CdnPurgeError extends Error {}

/** The CDN's refusal in one line: its status and the start of its answer. */
async function refused(cdn: string, res: Response): Promise<CdnPurgeError> {
  const body = (await res.text().catch(() => "")).replace(/\s+/g, " ").trim().slice(0, 200);
  return new CdnPurgeError(`${cdn} refused the purge: HTTP ${res.status}${body ? ` ${body}` : ""}`);
}

async function send(cdn: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CdnPurgeError(`${cdn} could not be reached: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
}

/**
 * Fastly's purge by surrogate key, in batches (POST /service/<id>/purge with the keys in the
 * Surrogate-Key header, up to 256 keys a request). A soft purge marks the objects stale instead of
 * dropping them, so a page is still served (stale) while the origin is slow to answer its refetch.
 */
export function fastlyPurger(opts: { apiUrl: string; serviceId: string; token: string }): CdnPurger {
  return {
    name: "fastly",
    batch: 256,
    purge: async (tags) => {
      const res = await send("Fastly", `${opts.apiUrl.replace(/\/$/, "")}/service/${encodeURIComponent(opts.serviceId)}/purge`, {
        method: "POST",
        headers: { "Fastly-Key": opts.token, "Surrogate-Key": tags.join(" "), "Fastly-Soft-Purge": "1", Accept: "application/json" },
      });
      if (!res.ok) throw await refused("Fastly", res);
      await res.body?.cancel();
    },
  };
}

/** Cloudflare's purge by cache tag: POST /zones/<id>/purge_cache {"tags": [...]}, up to 30 tags a request. */
export function cloudflarePurger(opts: { apiUrl: string; zoneId: string; token: string }): CdnPurger {
  return {
    name: "cloudflare",
    batch: 30,
    purge: async (tags) => {
      const res = await send("Cloudflare", `${opts.apiUrl.replace(/\/$/, "")}/zones/${encodeURIComponent(opts.zoneId)}/purge_cache`, {
        method: "POST",
        headers: { Authorization: `Bearer ${opts.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ tags }),
      });
      // Cloudflare answers 200 with success false for some refusals.
      const answer = res.ok ? ((await res.json().catch(() => null)) as { success?: boolean; errors?: { message?: string }[] } | null) : null;
      if (!res.ok) throw await refused("Cloudflare", res);
      if (answer?.success !== true) {
        throw new CdnPurgeError(`Cloudflare refused the purge: ${answer?.errors?.map((e) => e.message).join("; ") || "no success in its answer"}`);
      }
    },
  };
}

/**
 * Varnish (or any cache that takes it): a BAN (or PURGE) request to each cache's address with the
 * tags, space separated, in one header; the VCL in docs/deploy/varnish.vcl bans every object whose
 * Surrogate-Key holds one of them. All caches must take it for the purge to count.
 */
export function varnishPurger(opts: { urls: string[]; method: "BAN" | "PURGE"; header: string }): CdnPurger {
  return {
    name: "varnish",
    batch: 50,
    purge: async (tags) => {
      for (const url of opts.urls) {
        const res = await send("Varnish", url, { method: opts.method, headers: { [opts.header]: tags.join(" ") } });
        if (!res.ok) throw await refused(`Varnish at ${url}`, res);
        await res.body?.cancel();
      }
    },
  };
}

/** The adapter `CDN_PURGE` names, or null (off). A missing setting stops the start, naming it. */
export function cdnPurgerFromEnv(env: Env): CdnPurger | null {
  const need = (name: keyof Env): string => {
    const value = env[name];
    if (typeof value !== "string" || !value) throw new EnvError(`Invalid environment variable ${name}: CDN_PURGE=${env.CDN_PURGE} needs it`);
    return value;
  };
  switch (env.CDN_PURGE) {
    case "off":
      return null;
    case "fastly":
      return fastlyPurger({ apiUrl: env.FASTLY_API_URL, serviceId: need("FASTLY_SERVICE_ID"), token: need("FASTLY_API_TOKEN") });
    case "cloudflare":
      return cloudflarePurger({ apiUrl: env.CLOUDFLARE_API_URL, zoneId: need("CLOUDFLARE_ZONE_ID"), token: need("CLOUDFLARE_API_TOKEN") });
    case "varnish": {
      const urls = need("VARNISH_PURGE_URLS").split(",").map((u) => u.trim()).filter(Boolean);
      for (const url of urls) {
        if (!/^https?:\/\/[^/]/.test(url)) throw new EnvError(`Invalid environment variable VARNISH_PURGE_URLS: "${url}" is not an http(s) address`);
      }
      return varnishPurger({ urls, method: env.VARNISH_PURGE_METHOD, header: env.VARNISH_PURGE_HEADER });
    }
  }
}
