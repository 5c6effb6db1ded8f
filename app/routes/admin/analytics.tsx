import { ComingSoon } from "~/components/admin/coming-soon";
import { requireAdmin } from "~/routes/_edge/guards.server";
import type { Route } from "./+types/analytics";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export const meta: Route.MetaFunction = () => [
  { title: "Analytics — Admin" },
  { name: "description", content: "Analytics for the shop's admins." },
];

export default function AnalyticsPage() {
  return <ComingSoon title="Analytics" />;
}
