import { ComingSoon } from "~/components/admin/coming-soon";
import { requireAdmin } from "~/routes/_edge/guards.server";
import type { Route } from "./+types/customers";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export const meta: Route.MetaFunction = () => [
  { title: "Customers — Admin" },
  { name: "description", content: "Customers for the shop's admins." },
];

export default function CustomersPage() {
  return <ComingSoon title="Customers" />;
}
