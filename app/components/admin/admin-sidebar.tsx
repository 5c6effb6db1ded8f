import {
  BarChart3,
  FileText,
  Inbox,
  LayoutDashboard,
  ListRestart,
  Mail,
  Newspaper,
  Package,
  Settings,
  ShoppingCart,
  Store,
  TicketPercent,
  TrendingUp,
  Truck,
  Users,
  ScrollText,
  Send,
  ShieldCheck,
  Star,
  Undo2,
} from "lucide-react";
import { Link, useLocation } from "react-router";
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupContent,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuBadge,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarRail,
  SIDEBAR_COOKIE_NAME,
  useSidebar,
} from "~/components/ui/sidebar";

type NavItem = { title: string; to: string; icon: typeof Package };

/** The admin shell's entries, in this order (docs/rules/admin.md, Shell). */
export const ADMIN_NAV: NavItem[] = [
  { title: "Dashboard", to: "/admin", icon: LayoutDashboard },
  { title: "Products", to: "/admin/products", icon: Package },
  { title: "Orders", to: "/admin/orders", icon: ShoppingCart },
  { title: "Discounts", to: "/admin/discounts", icon: TicketPercent },
  { title: "Blog", to: "/admin/blog", icon: FileText },
  { title: "Site Settings", to: "/admin/site-settings", icon: Settings },
  { title: "Shipping & Tax", to: "/admin/settings/shipping", icon: Truck },
  { title: "Analytics", to: "/admin/analytics", icon: BarChart3 },
  { title: "Customers", to: "/admin/customers", icon: Users },
  { title: "Reports", to: "/admin/reports", icon: TrendingUp },
];

/** The shop's own additions to the admin shell: its mail and messages (docs/rules/admin.md, Shell). */
export const ADMIN_MESSAGES_NAV: NavItem[] = [
  { title: "Outbox", to: "/admin/outbox", icon: Send },
  { title: "Inbox", to: "/admin/inbox", icon: Inbox },
  { title: "Newsletter", to: "/admin/newsletter", icon: Newspaper },
  { title: "Reviews", to: "/admin/reviews", icon: Star },
  { title: "Returns", to: "/admin/returns", icon: Undo2 },
  // The owner-edited privacy policy and accessibility statement (docs/rules/visitor-storage.md).
  { title: "Pages", to: "/admin/pages", icon: ScrollText },
];

/** The shop's upkeep: background work that failed for good, and the log of personal-data exports and erasures (docs/rules/admin.md, Shell). */
export const ADMIN_UPKEEP_NAV: NavItem[] = [
  { title: "Background jobs", to: "/admin/jobs", icon: ListRestart },
  { title: "Privacy log", to: "/admin/privacy", icon: ShieldCheck },
];

/** The sidebar's saved state: open unless the cookie says "false" (remembered for 7 days: docs/rules/admin.md, Shell). */
export function sidebarOpenFromCookie(cookieHeader: string | null): boolean {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SIDEBAR_COOKIE_NAME) return rest.join("=") !== "false";
  }
  return true;
}

export function isNavActive(pathname: string, to: string) {
  const path = pathname.replace(/\/+$/, "") || "/";
  // The dashboard is an exact match (docs/rules/admin.md, Shell); the others own their sub-pages.
  return to === "/admin" ? path === "/admin" : path === to || path.startsWith(`${to}/`);
}

/** A count beside a sidebar entry (failed mails on Outbox, failed jobs on Background jobs), keyed by the entry's path. */
export type NavBadges = Partial<Record<string, { count: number; label: string }>>;

function NavMenu({ items, badges = {} }: { items: NavItem[]; badges?: NavBadges }) {
  const { pathname } = useLocation();
  const { isMobile, setOpenMobile } = useSidebar();
  return (
    <SidebarMenu>
      {items.map((item) => {
        const active = isNavActive(pathname, item.to);
        const badge = badges[item.to];
        const counted = badge && badge.count > 0 ? badge : null;
        return (
          <SidebarMenuItem key={item.to}>
            <SidebarMenuButton asChild isActive={active} tooltip={item.title}>
              <Link
                to={item.to}
                prefetch="intent"
                aria-current={active ? "page" : undefined}
                onClick={() => isMobile && setOpenMobile(false)}
              >
                <item.icon aria-hidden="true" />
                <span>{item.title}</span>
                {counted ? <span className="sr-only">({counted.label})</span> : null}
              </Link>
            </SidebarMenuButton>
            {counted ? (
              <SidebarMenuBadge aria-hidden="true" className="bg-destructive text-destructive-foreground">
                {counted.count > 99 ? "99+" : counted.count}
              </SidebarMenuBadge>
            ) : null}
          </SidebarMenuItem>
        );
      })}
    </SidebarMenu>
  );
}

export function AdminSidebar({ admin, badges }: { admin: { email: string; name: string }; badges?: NavBadges }) {
  return (
    <Sidebar collapsible="icon" mobileTitle="Admin Panel" mobileDescription="Admin navigation">
      <SidebarHeader>
        <SidebarMenu>
          <SidebarMenuItem>
            <SidebarMenuButton asChild size="lg" tooltip="Admin Panel">
              <Link to="/admin">
                <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground">
                  <Store className="size-4" aria-hidden="true" />
                </span>
                <span className="text-base font-semibold">Admin Panel</span>
              </Link>
            </SidebarMenuButton>
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarHeader>
      <SidebarContent>
        <nav aria-label="Admin">
          <SidebarGroup>
            <SidebarGroupLabel>Manage</SidebarGroupLabel>
            <SidebarGroupContent>
              <NavMenu items={ADMIN_NAV} />
            </SidebarGroupContent>
          </SidebarGroup>
          <SidebarGroup>
            <SidebarGroupLabel>Messages</SidebarGroupLabel>
            <SidebarGroupContent>
              <NavMenu items={ADMIN_MESSAGES_NAV} badges={badges} />
            </SidebarGroupContent>
          </SidebarGroup>
        </nav>
        <nav aria-label="Upkeep">
          <SidebarGroup>
            <SidebarGroupLabel>Upkeep</SidebarGroupLabel>
            <SidebarGroupContent>
              <NavMenu items={ADMIN_UPKEEP_NAV} badges={badges} />
            </SidebarGroupContent>
          </SidebarGroup>
        </nav>
      </SidebarContent>
      <SidebarFooter>
        <SidebarMenu>
          <SidebarMenuItem>
            <SidebarMenuButton asChild tooltip="View shop">
              <Link to="/">
                <Store aria-hidden="true" />
                <span>View shop</span>
              </Link>
            </SidebarMenuButton>
          </SidebarMenuItem>
          <SidebarMenuItem>
            <div className="flex items-center gap-2 overflow-hidden px-2 py-1 text-xs text-muted-foreground group-data-[collapsible=icon]:hidden">
              <Mail className="size-3 shrink-0" aria-hidden="true" />
              <span className="truncate" title={admin.email}>
                {admin.email}
              </span>
            </div>
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarFooter>
      <SidebarRail />
    </Sidebar>
  );
}
