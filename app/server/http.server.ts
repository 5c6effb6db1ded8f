// TODO(money-path): remove once checkout routes use app/routes/_edge. Nothing else may import this
// module: guards live in app/routes/_edge/guards.server.ts, the session lookup in
// app/server/auth/current-user.server.ts.
export { getCurrentUser, type CurrentUser } from "./auth/current-user.server";
export { invariantStatus as invariantResponse, requireAdmin, requireUser } from "~/routes/_edge/guards.server";
