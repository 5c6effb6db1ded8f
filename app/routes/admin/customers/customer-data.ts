import { invariantResponse, requireAdmin } from "~/routes/_edge/guards.server";
import { personalDataZip } from "~/routes/account/profile-data.server";
import { findCustomer } from "~/server/people/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/customer-data";

/**
 * 'Export data' on the admin's customer page (docs/rules/personal-data.md, The owner's side): the
 * same ZIP the customer would download, for a request that came by mail. An account's data by its
 * id; a guest's by the address. The privacy audit log names the admin. Admins only (403 otherwise,
 * from the guard); an unknown id is a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const customer = await findCustomer(getDb(), params.id);
  invariantResponse(customer, "Customer not found");
  const subject = customer.userId ? { userId: customer.userId } : { email: customer.emailKey };
  return personalDataZip(subject, { kind: "admin", id: admin.id }, "customer-data");
}
