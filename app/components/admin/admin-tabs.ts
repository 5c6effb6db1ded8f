/** The Product Management tabs (docs/rules/admin.md), kept in the URL as `?tab=` so a reload or a link opens the same one. */
export const ADMIN_TABS = [
  { value: "products", label: "Products" },
  { value: "categories", label: "Categories" },
  { value: "variations", label: "Variations" },
  { value: "import", label: "Import Products" },
  { value: "migrate", label: "Migrate Images" },
] as const;

export type AdminTab = (typeof ADMIN_TABS)[number]["value"];

export function tabFromSearch(search: string): AdminTab {
  const tab = new URLSearchParams(search).get("tab");
  return ADMIN_TABS.find((t) => t.value === tab)?.value ?? "products";
}
