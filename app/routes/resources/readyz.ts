import { shutdownSignal } from "~/server/platform/http/index.server";

/**
 * For load balancers: whether to send this server new requests. 200 while it serves; 503 from
 * the moment it starts to stop (SIGTERM/SIGINT), while it finishes the requests in flight, so a
 * balancer polling it takes the server out before it goes away. Dependencies are /healthz's part.
 */
export function loader() {
  const headers = { "Cache-Control": "no-store" };
  if (shutdownSignal.aborted) return Response.json({ status: "draining" }, { status: 503, headers: { ...headers, "Retry-After": "5" } });
  return Response.json({ status: "ready" }, { headers });
}
