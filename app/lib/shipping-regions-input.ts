import "./zod-config"; // before this module builds its schemas (see zod-config.ts)
import { z } from "zod";
import { CHOOSE_REGION_MESSAGE, hasRegions, regionCode } from "./regions";
import { TaxRateInput, ZoneInput } from "./shipping-settings-input";

/**
 * The server's reading of a zone's and a tax rate's regions: ISO 3166-2 regions of their
 * countries, kept as codes ('California' → 'CA'), anything else refused beside the field
 * (docs/rules/addresses.md). Apart from shipping-settings-input.ts, which the admin's dialogs
 * load, so the ISO 3166-2 list stays off those pages.
 */

const issue = (ctx: z.RefinementCtx, path: string[], message: string) => ctx.addIssue({ code: "custom", message, path });

export const ZoneWithRegionsInput = ZoneInput.transform((zone, ctx) => {
  if (!zone.regions.length || zone.restOfWorld) return zone;
  const withRegions = zone.countries.filter(hasRegions);
  const unknown: string[] = [];
  const codes = zone.regions.map((typed) => {
    const code = withRegions.map((c) => regionCode(c, typed)).find((c) => c !== null);
    if (!code) unknown.push(typed);
    return code ?? typed;
  });
  if (unknown.length) {
    issue(ctx, ["regions"], `${CHOOSE_REGION_MESSAGE} Not a region of ${zone.countries.join(", ")}: ${unknown.slice(0, 5).join(", ")}`);
    return z.NEVER;
  }
  return { ...zone, regions: [...new Set(codes)] };
});

export const TaxRateWithRegionInput = TaxRateInput.transform((v, ctx) => {
  if (!v.region) return v;
  const code = hasRegions(v.country) ? regionCode(v.country, v.region) : null;
  if (code === null) {
    issue(ctx, ["region"], hasRegions(v.country) ? `${CHOOSE_REGION_MESSAGE} Not a region of ${v.country}: ${v.region}` : `${v.country} has no regions: leave this empty`);
    return z.NEVER;
  }
  return { ...v, region: code };
});
