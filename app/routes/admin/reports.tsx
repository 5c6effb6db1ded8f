import { ComingSoon } from "~/components/admin/coming-soon";
import { requireAdmin } from "~/routes/_edge/guards.server";
import type { Route } from "./+types/reports";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export const meta: Route.MetaFunction = () => [
  { title: "Reports — Admin" },
  { name: "description", content: "Reports for the shop's admins." },
];

export default function ReportsPage() {
  return <ComingSoon title="Reports" />;
}
