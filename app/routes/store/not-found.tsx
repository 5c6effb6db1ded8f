import { useEffect } from "react";
import { useLocation } from "react-router";
import { NotFoundContent } from "~/components/error-pages";
import { brandFrom } from "~/lib/seo";
import { respond } from "~/routes/_edge/errors.server";
import { logger } from "~/server/platform/http/index.server";
import type { Route } from "./+types/not-found";

/** Any path no other route claims (docs/rules/storefront.md, Not-found page), served with status 404. */
export async function loader({ request }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname;
  logger.warn({ path }, "404: no route for this path");
  return respond({ kind: "not_found" }, { path });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Page not found — ${brandFrom(matches)}` },
  { name: "description", content: "This page does not exist. Find bedding and home goods in the shop." },
  { name: "robots", content: "noindex" },
];

export default function NotFound() {
  const location = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", location.pathname);
  }, [location.pathname]);
  return <NotFoundContent />;
}
