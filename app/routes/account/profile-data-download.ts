import { requireUser } from "~/routes/_edge/guards.server";
import { personalDataZip } from "./profile-data.server";
import type { Route } from "./+types/profile-data-download";

/**
 * 'Download my data' on the profile: the signed-in person's own data as a ZIP (data.json and CSVs
 * of the same), streamed. The account is the session's; the URL names nobody, so there is no id
 * to change. Not signed in: sent to /auth and back.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return personalDataZip({ userId: user.id });
}
