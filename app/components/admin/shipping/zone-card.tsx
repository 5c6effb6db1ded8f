import { Globe, Pencil, Plus, Trash2 } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import {
  bandSummary,
  RATE_KIND_LABELS,
  ratePriceSummary,
  zoneCoverage,
  type AdminRate,
  type AdminZone,
} from "~/lib/shipping-settings-view";
import { RowActions } from "./row-actions";

/** One zone: what it covers, its rates, and its buttons. */
export function ZoneCard({
  zone,
  onEdit,
  onDelete,
  onAddRate,
  onEditRate,
  onDeleteRate,
}: {
  zone: AdminZone;
  onEdit: () => void;
  onDelete: () => void;
  onAddRate: () => void;
  onEditRate: (rate: AdminRate) => void;
  onDeleteRate: (rate: AdminRate) => void;
}) {
  const titleId = `zone-${zone.id}-title`;
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1.5">
          <CardTitle className="flex flex-wrap items-center gap-2">
            <h3 id={titleId}>{zone.name}</h3>
            {zone.restOfWorld ? (
              <Badge variant="neutral">
                <Globe aria-hidden="true" />
                Rest of the world
              </Badge>
            ) : null}
          </CardTitle>
          <CardDescription>{zoneCoverage(zone)}</CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={onEdit} aria-label={`Edit zone ${zone.name}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button size="sm" variant="outline" onClick={onDelete} aria-label={`Delete zone ${zone.name}`}>
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        {zone.rates.length === 0 ? (
          <p className="text-sm text-muted-foreground">No rates yet: addresses in this zone cannot check out.</p>
        ) : (
          <Table aria-label={`Rates for ${zone.name}`}>
            <TableHeader>
              <TableRow>
                <TableHead>Rate</TableHead>
                <TableHead>Pricing</TableHead>
                <TableHead>Price</TableHead>
                <TableHead>Estimate</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {zone.rates.map((rate) => (
                <TableRow key={rate.id}>
                  <TableCell className="font-medium">{rate.name}</TableCell>
                  <TableCell>{RATE_KIND_LABELS[rate.kind]}</TableCell>
                  <TableCell className="whitespace-normal">
                    {rate.kind === "weight" ? (
                      <ul className="space-y-0.5">
                        {rate.weightBands.map((b, i) => (
                          <li key={i}>{bandSummary(b)}</li>
                        ))}
                      </ul>
                    ) : (
                      ratePriceSummary(rate)
                    )}
                  </TableCell>
                  <TableCell className="whitespace-normal text-muted-foreground">{rate.estimate || "—"}</TableCell>
                  <TableCell className="text-right whitespace-nowrap">
                    <RowActions
                      editLabel={`Edit rate ${rate.name}`}
                      deleteLabel={`Delete rate ${rate.name}`}
                      onEdit={() => onEditRate(rate)}
                      onDelete={() => onDeleteRate(rate)}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Button size="sm" variant="secondary" onClick={onAddRate} aria-label={`Add rate to ${zone.name}`}>
          <Plus aria-hidden="true" />
          Add Rate
        </Button>
      </CardContent>
    </Card>
  );
}
