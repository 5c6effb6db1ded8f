import { Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { formatRate } from "~/lib/pricing-view";
import { taxPlace, type AdminRate, type AdminTaxRate, type AdminZone, type ShippingSettingsData } from "~/lib/shipping-settings-view";
import { ConfirmDelete } from "../confirm-delete";
import { useAdminAction } from "../use-admin-action";
import { SHIPPING_ACTION } from "./use-shipping-form";
import { RateDialog } from "./rate-dialog";
import { TaxRateDialog, TaxSection } from "./tax-section";
import { ZoneCard } from "./zone-card";
import { ZoneDialog } from "./zone-dialog";

type Editing =
  | { kind: "zone"; zone: AdminZone | null }
  | { kind: "rate"; zone: AdminZone; rate: AdminRate | null }
  | { kind: "tax-rate"; rate: AdminTaxRate | null }
  | null;

type PendingDelete = { intent: "delete-zone" | "delete-rate" | "delete-tax-rate"; id: string; title: string; description: string };

/** /admin/settings/shipping: zones as cards with their rates, then tax (docs/rules/admin.md, Shipping & Tax). */
export function ShippingSettingsPage({ settings }: { settings: ShippingSettingsData }) {
  const [editing, setEditing] = useState<Editing>(null);
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null);
  // One writer for every delete, so its toast outlives the row it removed.
  const remove = useAdminAction({ action: SHIPPING_ACTION });
  const close = () => setEditing(null);

  return (
    <div className="mx-auto w-full max-w-5xl space-y-8 p-4 md:p-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Shipping & Tax</h1>
        <p className="text-muted-foreground">Where the shop ships, what shipping costs, and how tax is charged.</p>
      </div>

      <section aria-labelledby="zones-title" className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <div>
            <h2 id="zones-title" className="text-xl font-semibold">
              Shipping Zones
            </h2>
            <p className="text-sm text-muted-foreground">
              An address uses the most specific zone that covers it (postcode, then region, then country), else the rest of
              the world. Addresses no zone covers cannot check out.
            </p>
          </div>
          <Button onClick={() => setEditing({ kind: "zone", zone: null })}>
            <Plus aria-hidden="true" />
            Add Zone
          </Button>
        </div>
        {settings.zones.length === 0 ? (
          <p role="status" className="rounded-xl border border-dashed p-6 text-sm text-muted-foreground">
            No shipping zones: the shop ships nowhere, and no order can be placed. Add a zone to start shipping.
          </p>
        ) : (
          settings.zones.map((zone) => (
            <ZoneCard
              key={zone.id}
              zone={zone}
              onEdit={() => setEditing({ kind: "zone", zone })}
              onDelete={() =>
                setPendingDelete({
                  intent: "delete-zone",
                  id: zone.id,
                  title: "Delete Zone",
                  description: `Are you sure you want to delete the zone "${zone.name}" and its rates? Addresses it covers will use another zone, or cannot check out. This action cannot be undone.`,
                })
              }
              onAddRate={() => setEditing({ kind: "rate", zone, rate: null })}
              onEditRate={(rate) => setEditing({ kind: "rate", zone, rate })}
              onDeleteRate={(rate) =>
                setPendingDelete({
                  intent: "delete-rate",
                  id: rate.id,
                  title: "Delete Rate",
                  description: `Are you sure you want to delete the rate "${rate.name}" of "${zone.name}"? This action cannot be undone.`,
                })
              }
            />
          ))
        )}
      </section>

      <TaxSection
        settings={settings.taxSettings}
        rates={settings.taxRates}
        onAddRate={() => setEditing({ kind: "tax-rate", rate: null })}
        onEditRate={(rate) => setEditing({ kind: "tax-rate", rate })}
        onDeleteRate={(rate) =>
          setPendingDelete({
            intent: "delete-tax-rate",
            id: rate.id,
            title: "Delete Tax Rate",
            description: `Are you sure you want to delete the ${formatRate(rate.rateBasisPoints)} tax rate for ${taxPlace(rate)}? This action cannot be undone.`,
          })
        }
      />

      {editing?.kind === "zone" ? <ZoneDialog zone={editing.zone} onClose={close} /> : null}
      {editing?.kind === "rate" ? <RateDialog zone={editing.zone} rate={editing.rate} onClose={close} /> : null}
      {editing?.kind === "tax-rate" ? <TaxRateDialog rate={editing.rate} onClose={close} /> : null}
      <ConfirmDelete
        open={pendingDelete !== null}
        onOpenChange={(open) => !open && setPendingDelete(null)}
        title={pendingDelete?.title ?? ""}
        description={pendingDelete?.description ?? ""}
        onConfirm={() => pendingDelete && remove.submit({ intent: pendingDelete.intent, id: pendingDelete.id })}
      />
    </div>
  );
}
