/**
 * Swatch colours for the catalogue's colour names ("Sage", "Natural Oak"), worked out on the
 * server: cards and the product page receive them with the product (ProductCardData.swatches),
 * so the browser never downloads the table.
 */

const SWATCHES: Record<string, string> = {
  white: "#ffffff", ivory: "#fffff0", cream: "#f6efd9", chalk: "#f4f2ec", natural: "#e8dcc4", oat: "#dcd0b8",
  oatmeal: "#d8ccb4", flax: "#cdb88f", sand: "#d6c3a0", stone: "#b9b1a4", taupe: "#8f8073", champagne: "#eedfc0",
  camel: "#c19a6b", mustard: "#d4a72c", ochre: "#c7862f", brass: "#b5a642", gold: "#c9a13b", rust: "#b7472a",
  terracotta: "#c8643b", clay: "#b66a50", red: "#b3261e", madder: "#a33a2c", rose: "#d98c9a", blush: "#e8b4b0",
  pink: "#f2a7b8", plum: "#6e3b5e", sage: "#a3b18a", olive: "#6b6b3a", moss: "#6f7d45", forest: "#2f4f3a",
  green: "#4a7c59", mist: "#dfe6e8", fog: "#cfd4d6", sky: "#9cc3e0", blue: "#3b6ea8", dusty: "#8aa3b8",
  sea: "#4f8fa3", indigo: "#3f4a8a", navy: "#1f2d4d", midnight: "#1b1f3b", silver: "#c0c0c0", grey: "#9ca3af",
  gray: "#9ca3af", heather: "#a7a6ad", smoke: "#8d8f91", slate: "#5f6b76", graphite: "#474a4f", charcoal: "#36393d",
  black: "#1a1a1a", oak: "#b8894f", walnut: "#5d4030", ash: "#d2c3a8", clear: "#f3f6f8", brown: "#7a5230",
  beige: "#e3d5b8", yellow: "#e9c46a", orange: "#e07a3f", purple: "#7b5ea7", teal: "#2a8c8c",
};

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A swatch for a colour name: a hex value as given, else the first known word, else neutral grey. */
export function swatchFor(name: string): string {
  const trimmed = name.trim();
  if (HEX.test(trimmed)) return trimmed;
  const lower = trimmed.toLowerCase();
  if (SWATCHES[lower.replace(/\s+/g, "")]) return SWATCHES[lower.replace(/\s+/g, "")]!;
  for (const word of lower.split(/[^a-z]+/)) if (SWATCHES[word]) return SWATCHES[word]!;
  return "#b0b0b0";
}
