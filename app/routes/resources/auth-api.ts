import { getAuth } from "~/server/auth/auth.server";
import type { Route } from "./+types/auth-api";

/** better-auth's own endpoints (sign-in, sign-up, verification links, reset, two-factor). */
export async function loader({ request }: Route.LoaderArgs) {
  return getAuth().handler(request);
}

export async function action({ request }: Route.ActionArgs) {
  return getAuth().handler(request);
}
