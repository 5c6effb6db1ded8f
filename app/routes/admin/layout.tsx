import { Link, Outlet, useLoaderData } from "react-router";
import { AdminSidebar, sidebarOpenFromCookie } from "~/components/admin/admin-sidebar";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Separator } from "~/components/ui/separator";
import { SidebarInset, SidebarProvider, SidebarTrigger } from "~/components/ui/sidebar";
import { requireAdmin } from "~/routes/_edge/guards.server";
import { failedWorkCounts } from "~/server/insight/index.server";
import { getDb } from "~/server/platform/http/index.server";
import type { Route } from "./+types/layout";

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const { failedMails, failedJobs } = await failedWorkCounts(getDb());
  return {
    admin: { email: admin.email, name: admin.name },
    // Rendered on the server in the saved state, so a collapsed sidebar never flashes open.
    sidebarOpen: sidebarOpenFromCookie(request.headers.get("cookie")),
    // Mails that failed and have not gone out (retrying or given up): a badge on Outbox.
    failedMails,
    // Background jobs whose tries are spent (waiting for 'Try again'): a badge on Background jobs.
    failedJobs,
  };
}

export const meta: Route.MetaFunction = () => [
  { title: "Admin — Linen & Loft" },
  { name: "description", content: "The shop's back-office." },
  { name: "robots", content: "noindex" },
];

export default function AdminLayout() {
  const { admin, sidebarOpen, failedMails, failedJobs } = useLoaderData<typeof loader>();
  return (
    <SidebarProvider defaultOpen={sidebarOpen}>
      <AdminSidebar
        admin={admin}
        badges={{
          "/admin/outbox": { count: failedMails, label: `${failedMails} failed ${failedMails === 1 ? "mail" : "mails"}` },
          "/admin/jobs": { count: failedJobs, label: `${failedJobs} failed ${failedJobs === 1 ? "job" : "jobs"}` },
        }}
      />
      <SidebarInset id="main">
        <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-4 backdrop-blur">
          <SidebarTrigger className="-ml-1" />
          <Separator orientation="vertical" className="mr-2 data-[orientation=vertical]:h-4" />
          <span className="text-sm font-medium">Admin Panel</span>
          <Link to="/" className="ml-auto text-sm text-muted-foreground hover:text-foreground">
            View shop
          </Link>
        </header>
        <div className="flex-1">
          <Outlet />
        </div>
      </SidebarInset>
    </SidebarProvider>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
