import { useEffect, useState } from "react";
import type { Region } from "~/lib/regions";

/**
 * The country's ISO 3166-2 regions offered under a text field (`list={id}`): the shopper or the
 * owner picks one or types its name, code or abbreviation, which the server reads as its code
 * (docs/rules/addresses.md). The list is loaded when the field is shown, so the pages around it
 * (the profile, the admin's settings) do not carry it in their first load.
 */
export function RegionOptions({ id, country }: { id: string; country: string }) {
  const [regions, setRegions] = useState<readonly Region[]>([]);
  useEffect(() => {
    let current = true;
    void import("~/lib/regions").then((m) => {
      if (current) setRegions(m.regionsOf(country));
    });
    return () => {
      current = false;
    };
  }, [country]);
  return (
    <datalist id={id}>
      {regions.map((r) => (
        <option key={r.code} value={r.name} />
      ))}
    </datalist>
  );
}
