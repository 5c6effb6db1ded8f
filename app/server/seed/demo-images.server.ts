/**
 * Generated demo illustrations: flat SVG drawings rendered to WebP with sharp.
 * No text, no fonts, no network. Each motif is drawn in a 100×100 box that is
 * centred and scaled onto a full-bleed background, so any aspect ratio works.
 */
import { loadSharp } from "../platform/index.server";

export type Motif =
  | "duvet"
  | "pillow"
  | "throw"
  | "sheet"
  | "mattress"
  | "chair"
  | "table"
  | "lamp"
  | "vase"
  | "frame"
  | "basket"
  | "candle"
  | "mirror"
  | "rug"
  | "towel"
  | "box";

export type DemoImageOptions = {
  hue: number;
  motif: Motif;
  width: number;
  height: number;
  /** Not drawn as text; it only seeds small, stable variations in the picture. */
  label?: string;
};

// ───────────────────────────── colour helpers ─────────────────────────────

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

/** HSL (degrees, percent, percent) to #rrggbb; librsvg gets plain hex colours. */
function hsl(h: number, s: number, l: number): string {
  const hue = (((h % 360) + 360) % 360) / 360;
  const sat = clamp(s, 0, 100) / 100;
  const lig = clamp(l, 0, 100) / 100;
  const q = lig < 0.5 ? lig * (1 + sat) : lig + sat - lig * sat;
  const p = 2 * lig - q;
  const channel = (t: number) => {
    let x = t;
    if (x < 0) x += 1;
    if (x > 1) x -= 1;
    if (x < 1 / 6) return p + (q - p) * 6 * x;
    if (x < 1 / 2) return q;
    if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
    return p;
  };
  const toHex = (v: number) =>
    Math.round(clamp(v, 0, 1) * 255)
      .toString(16)
      .padStart(2, "0");
  return `#${toHex(channel(hue + 1 / 3))}${toHex(channel(hue))}${toHex(channel(hue - 1 / 3))}`;
}

type Palette = {
  bgTop: string;
  bgBottom: string;
  floor: string;
  main: string;
  mainDark: string;
  mainLight: string;
  pale: string;
  accent: string;
  wood: string;
  woodDark: string;
  cream: string;
  shadow: string;
};

function palette(hue: number, seed: number): Palette {
  const accentShift = [30, -30, 150, 180][seed % 4];
  return {
    bgTop: hsl(hue, 45, 95),
    bgBottom: hsl(hue, 38, 88),
    floor: hsl(hue, 28, 84),
    main: hsl(hue, 38, 62),
    mainDark: hsl(hue, 32, 44),
    mainLight: hsl(hue, 45, 80),
    pale: hsl(hue, 40, 92),
    accent: hsl(hue + accentShift, 42, 66),
    wood: hsl(30, 38, 58),
    woodDark: hsl(28, 34, 42),
    cream: hsl(40, 45, 96),
    shadow: hsl(hue, 30, 30),
  };
}

/** Small stable hash (FNV-1a) so the same label always gives the same picture. */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function r(n: number): string {
  return (Math.round(n * 100) / 100).toString();
}

// ───────────────────────────── motif drawings ─────────────────────────────
// Each returns SVG markup in a 100×100 box; the object rests on y≈84.

type Draw = (c: Palette, seed: number) => string;

function groundShadow(c: Palette, rx = 34): string {
  return `<ellipse cx="50" cy="85" rx="${rx}" ry="3.6" fill="${c.shadow}" opacity="0.13"/>`;
}

const drawDuvet: Draw = (c, seed) => {
  // A plump quilted duvet: box stitching, a soft highlight on each box, and a turned-back top band.
  const cols = 3 + (seed % 2);
  const x0 = 14;
  const w = 72;
  const top = 30;
  const band = 13;
  const bodyTop = top + band;
  const bottom = 84;
  const rowMid = (bodyTop + bottom) / 2;
  const stitches: string[] = [];
  for (let i = 1; i < cols; i++) {
    const x = x0 + (w * i) / cols;
    stitches.push(`<line x1="${r(x)}" y1="${bodyTop + 2}" x2="${r(x)}" y2="${bottom - 2}" />`);
  }
  stitches.push(`<line x1="${x0 + 2}" y1="${r(rowMid)}" x2="${x0 + w - 2}" y2="${r(rowMid)}" />`);
  const highlights: string[] = [];
  for (let i = 0; i < cols; i++) {
    const bx = x0 + (w * i) / cols;
    const bw = w / cols;
    for (const y of [bodyTop + 4.5, rowMid + 4.5]) {
      highlights.push(`<path d="M${r(bx + bw * 0.25)} ${r(y)} Q${r(bx + bw / 2)} ${r(y - 2.2)} ${r(bx + bw * 0.75)} ${r(y)}" />`);
    }
  }
  return `${groundShadow(c, 38)}
<rect x="${x0}" y="${top}" width="${w}" height="${bottom - top}" rx="8" fill="${c.main}"/>
<g stroke="#ffffff" stroke-width="1.6" stroke-linecap="round" fill="none" opacity="0.28">${highlights.join("")}</g>
<g stroke="${c.mainLight}" stroke-width="0.9" stroke-dasharray="2 1.6" fill="none">${stitches.join("")}</g>
<path d="M${x0} ${top + 8} A8 8 0 0 1 ${x0 + 8} ${top} H${x0 + w - 8} A8 8 0 0 1 ${x0 + w} ${top + 8} V${bodyTop} H${x0} Z" fill="${c.mainLight}"/>
<line x1="${x0 + 4}" y1="${top + band / 2 + 1}" x2="${x0 + w - 4}" y2="${top + band / 2 + 1}" stroke="${c.main}" stroke-width="0.8" stroke-dasharray="2 1.6"/>
<rect x="${x0}" y="${bodyTop}" width="${w}" height="1.8" fill="${c.mainDark}" opacity="0.28"/>`;
};

const drawPillow: Draw = (c, seed) => {
  const piping = seed % 2 === 0;
  return `${groundShadow(c, 36)}
<path d="M26 34 Q50 27 80 33 Q86 50 80 68 Q52 74 26 68 Q21 50 26 34 Z" fill="${c.mainLight}" transform="translate(-6 -6)"/>
<path d="M20 40 Q50 32 84 40 Q90 58 84 78 Q50 86 20 78 Q14 58 20 40 Z" fill="${c.main}"/>
${
  piping
    ? `<path d="M23 43 Q50 36 81 43 Q86 58 81 75 Q50 82 23 75 Q18 58 23 43 Z" fill="none" stroke="${c.pale}" stroke-width="0.9" stroke-dasharray="2 1.5"/>`
    : `<circle cx="52" cy="59" r="2.2" fill="${c.mainDark}"/><path d="M52 59 L30 48 M52 59 L76 48 M52 59 L30 72 M52 59 L76 72" stroke="${c.mainDark}" stroke-width="0.7" opacity="0.35"/>`
}
<path d="M28 46 Q46 40 64 44" stroke="#ffffff" stroke-width="2.2" stroke-linecap="round" fill="none" opacity="0.3"/>`;
};

const drawThrow: Draw = (c, seed) => {
  // Folded blanket stack with woven stripes and a fringe.
  const stripe = seed % 3;
  const fringe: string[] = [];
  for (let y = 52; y <= 82; y += 2.4) fringe.push(`<line x1="84" y1="${r(y)}" x2="88.5" y2="${r(y + 0.8)}" />`);
  const stripes =
    stripe === 0
      ? `<rect x="14" y="56" width="70" height="2" fill="${c.pale}"/><rect x="14" y="60" width="70" height="1" fill="${c.pale}"/><rect x="14" y="74" width="70" height="2" fill="${c.pale}"/>`
      : stripe === 1
        ? `<rect x="30" y="50" width="3" height="34" fill="${c.accent}"/><rect x="36" y="50" width="1.4" height="34" fill="${c.accent}"/><rect x="64" y="50" width="3" height="34" fill="${c.accent}"/>`
        : `<path d="M14 58 L84 58 M14 66 L84 66 M14 74 L84 74" stroke="${c.mainDark}" stroke-width="0.9" stroke-dasharray="1.2 1.8"/>`;
  return `${groundShadow(c, 38)}
<rect x="18" y="36" width="62" height="14" rx="5" fill="${c.mainLight}"/>
<path d="M22 43 H76" stroke="${c.main}" stroke-width="0.8" stroke-dasharray="1.5 1.5"/>
<rect x="14" y="50" width="70" height="34" rx="6" fill="${c.main}"/>
${stripes}
<rect x="14" y="66" width="70" height="1.4" fill="${c.mainDark}" opacity="0.3"/>
<g stroke="${c.mainLight}" stroke-width="0.9" stroke-linecap="round">${fringe.join("")}</g>`;
};

const drawSheet: Draw = (c) => {
  // A stack of crisply folded sheets tied with a ribbon.
  const layers = [
    { y: 68, h: 14, fill: c.main },
    { y: 56, h: 12, fill: c.cream },
    { y: 44, h: 12, fill: c.mainLight },
    { y: 32, h: 12, fill: c.pale },
  ];
  const body = layers
    .map(
      (l) =>
        `<rect x="18" y="${l.y}" width="64" height="${l.h}" rx="4" fill="${l.fill}"/><path d="M22 ${l.y + l.h - 3} H78" stroke="${c.mainDark}" stroke-width="0.5" opacity="0.25"/>`,
    )
    .join("");
  return `${groundShadow(c, 36)}
${body}
<rect x="60" y="32" width="5" height="50" fill="${c.accent}"/>
<path d="M62.5 32 q-7 -7 -9 -1 q2 4 9 1 q7 -7 9 -1 q-2 4 -9 1 Z" fill="${c.accent}"/>`;
};

const drawMattress: Draw = (c, seed) => {
  const dots: string[] = [];
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 2; j++) {
      const x = 28 + i * 14 + j * 5;
      const y = 44 + j * 5;
      dots.push(`<circle cx="${r(x)}" cy="${r(y)}" r="0.9" fill="${c.mainDark}" opacity="0.45"/>`);
    }
  }
  const stripes = seed % 2 === 0;
  return `${groundShadow(c, 42)}
<polygon points="12,56 26,40 90,40 76,56" fill="${c.cream}" stroke="${c.main}" stroke-width="0.8" stroke-linejoin="round"/>
${dots.join("")}
<polygon points="76,56 90,40 90,64 76,80" fill="${c.mainLight}"/>
<rect x="12" y="56" width="64" height="24" rx="2" fill="${c.cream}"/>
<rect x="12" y="56" width="64" height="3" fill="${c.main}"/>
<rect x="12" y="77" width="64" height="3" fill="${c.main}"/>
${
  stripes
    ? `<g stroke="${c.mainLight}" stroke-width="1.2">${[20, 28, 36, 44, 52, 60, 68].map((x) => `<line x1="${x}" y1="60" x2="${x}" y2="76"/>`).join("")}</g>`
    : `<path d="M16 68 H72" stroke="${c.main}" stroke-width="0.8" stroke-dasharray="2 1.5"/>`
}
<rect x="16" y="80" width="3" height="4" fill="${c.woodDark}"/><rect x="70" y="80" width="3" height="4" fill="${c.woodDark}"/>`;
};

const drawChair: Draw = (c) =>
  `${groundShadow(c, 34)}
<rect x="28" y="79" width="3" height="6" rx="1" fill="${c.woodDark}" transform="rotate(8 29 79)"/>
<rect x="69" y="79" width="3" height="6" rx="1" fill="${c.woodDark}" transform="rotate(-8 70 79)"/>
<rect x="26" y="20" width="48" height="44" rx="14" fill="${c.main}"/>
<path d="M38 24 V58 M50 22 V58 M62 24 V58" stroke="${c.mainDark}" stroke-width="0.8" opacity="0.3"/>
<rect x="22" y="58" width="56" height="17" rx="6" fill="${c.mainLight}"/>
<rect x="14" y="44" width="15" height="36" rx="7.5" fill="${c.main}"/>
<rect x="71" y="44" width="15" height="36" rx="7.5" fill="${c.main}"/>
<rect x="24" y="74" width="52" height="6" rx="3" fill="${c.mainDark}" opacity="0.35"/>
<path d="M31 28 Q40 24 48 26" stroke="#ffffff" stroke-width="2" stroke-linecap="round" fill="none" opacity="0.25"/>`;

const drawTable: Draw = (c, seed) => {
  const topper =
    seed % 2 === 0
      ? `<rect x="30" y="31" width="16" height="3" rx="0.8" fill="${c.accent}"/><rect x="31" y="28" width="14" height="3" rx="0.8" fill="${c.mainLight}"/>
<path d="M62 34 Q60 28 64 24 Q66 29 62 34 Z M63 34 Q68 26 72 26 Q70 32 63 34 Z" fill="${hsl(120, 25, 52)}"/><rect x="60" y="33" width="8" height="3" rx="1" fill="${c.cream}"/>`
      : `<circle cx="64" cy="28" r="6" fill="${c.mainLight}" opacity="0.9"/><rect x="63" y="32" width="2" height="4" fill="${c.woodDark}"/>`;
  return `${groundShadow(c, 32)}
${topper}
<rect x="24" y="36" width="52" height="6" rx="2" fill="${c.wood}"/>
<rect x="27" y="42" width="46" height="26" rx="1.5" fill="${c.main}"/>
<rect x="30" y="45" width="40" height="9" rx="1" fill="${c.mainLight}"/>
<rect x="30" y="56" width="40" height="9" rx="1" fill="${c.mainLight}"/>
<circle cx="50" cy="49.5" r="1.2" fill="${c.woodDark}"/><circle cx="50" cy="60.5" r="1.2" fill="${c.woodDark}"/>
<rect x="29" y="68" width="3.5" height="17" rx="1" fill="${c.wood}"/>
<rect x="67.5" y="68" width="3.5" height="17" rx="1" fill="${c.wood}"/>`;
};

const drawLamp: Draw = (c, seed) => {
  const ceramicBase = seed % 2 === 0;
  const base = ceramicBase
    ? `<path d="M44 52 H56 V55 C64 58 66 66 62 74 C60 78 56 80 50 80 C44 80 40 78 38 74 C34 66 36 58 44 55 Z" fill="${c.main}"/>
<path d="M42 62 Q50 60 58 62" stroke="${c.pale}" stroke-width="1.2" fill="none" opacity="0.6"/>`
    : `<rect x="48.8" y="52" width="2.4" height="26" fill="${c.woodDark}"/>`;
  return `<radialGradient id="glow" cx="50%" cy="50%" r="50%"><stop offset="0%" stop-color="#fff6d8" stop-opacity="0.95"/><stop offset="100%" stop-color="#fff6d8" stop-opacity="0"/></radialGradient>
<circle cx="50" cy="40" r="34" fill="url(#glow)"/>
${groundShadow(c, 24)}
${base}
<rect x="36" y="78" width="28" height="6" rx="3" fill="${c.mainDark}"/>
<polygon points="33,22 67,22 76,52 24,52" fill="${c.cream}"/>
<polygon points="33,22 67,22 76,52 24,52" fill="#ffe9b0" opacity="0.35"/>
<path d="M33 22 H67" stroke="${c.mainLight}" stroke-width="1.4"/>
<path d="M24 52 H76" stroke="${c.mainLight}" stroke-width="1.4"/>`;
};

const drawVase: Draw = (c, seed) => {
  const leaves =
    seed % 2 === 0
      ? `<path d="M50 24 Q47 12 38 6" stroke="${hsl(110, 25, 40)}" stroke-width="1.1" fill="none"/>
<path d="M50 24 Q54 14 64 10" stroke="${hsl(110, 25, 40)}" stroke-width="1.1" fill="none"/>
<ellipse cx="40" cy="10" rx="5" ry="2.2" fill="${hsl(110, 28, 52)}" transform="rotate(35 40 10)"/>
<ellipse cx="45" cy="16" rx="4.5" ry="2" fill="${hsl(110, 28, 46)}" transform="rotate(-30 45 16)"/>
<ellipse cx="61" cy="11" rx="5" ry="2.2" fill="${hsl(110, 28, 48)}" transform="rotate(-30 61 11)"/>
<ellipse cx="56" cy="17" rx="4.5" ry="2" fill="${hsl(110, 28, 55)}" transform="rotate(25 56 17)"/>`
      : `<path d="M50 24 Q49 14 52 4" stroke="${c.woodDark}" stroke-width="1" fill="none"/>
<path d="M51 14 Q58 10 62 4" stroke="${c.woodDark}" stroke-width="0.8" fill="none"/>
<circle cx="52" cy="4.5" r="2" fill="${c.accent}"/><circle cx="62" cy="4.5" r="1.6" fill="${c.accent}"/>`;
  return `${leaves}
${groundShadow(c, 22)}
<path d="M44 22 H56 V28 C56 34 70 40 70 58 C70 74 62 84 50 84 C38 84 30 74 30 58 C30 40 44 34 44 28 Z" fill="${c.main}"/>
<path d="M31 60 Q50 64 69 60 L69.6 64 Q50 68 30.4 64 Z" fill="${c.mainLight}" opacity="0.8"/>
<rect x="43" y="21" width="14" height="3" rx="1.5" fill="${c.mainDark}"/>
<path d="M37 50 Q38 42 44 38" stroke="#ffffff" stroke-width="2" stroke-linecap="round" fill="none" opacity="0.3"/>`;
};

const drawFrame: Draw = (c, seed) => {
  const art =
    seed % 2 === 0
      ? `<circle cx="58" cy="36" r="6" fill="${c.accent}"/>
<path d="M34 62 Q44 46 54 56 Q60 48 66 62 Z" fill="${c.main}"/>
<path d="M34 62 Q46 54 66 62 Z" fill="${c.mainDark}" opacity="0.5"/>`
      : `<path d="M38 62 V44 A12 12 0 0 1 62 44 V62 Z" fill="${c.main}"/>
<path d="M44 62 V48 A6 6 0 0 1 56 48 V62 Z" fill="${c.accent}"/>`;
  return `${groundShadow(c, 26)}
<rect x="24" y="12" width="52" height="70" rx="1.5" fill="${c.wood}"/>
<rect x="27.5" y="15.5" width="45" height="63" fill="${c.cream}"/>
<rect x="34" y="24" width="32" height="40" fill="${c.pale}"/>
${art}
<rect x="34" y="24" width="32" height="40" fill="none" stroke="${c.mainDark}" stroke-width="0.5" opacity="0.3"/>
<path d="M24 12 L27.5 15.5 M76 12 L72.5 15.5 M24 82 L27.5 78.5 M76 82 L72.5 78.5" stroke="${c.woodDark}" stroke-width="0.5" opacity="0.6"/>`;
};

const drawBasket: Draw = (c, seed) => {
  const rows: string[] = [];
  for (let y = 50; y < 82; y += 5) rows.push(`<path d="M${r(22 + (y - 44) * 0.16)} ${y} H${r(78 - (y - 44) * 0.16)}" />`);
  const cols: string[] = [];
  for (let x = 26; x <= 74; x += 6) cols.push(`<path d="M${x} 46 L${r(50 + (x - 50) * 0.86)} 84" />`);
  const contents =
    seed % 2 === 0
      ? `<rect x="30" y="34" width="40" height="12" rx="6" fill="${c.mainLight}"/><path d="M34 40 H66" stroke="${c.main}" stroke-width="0.8" stroke-dasharray="1.5 1.5"/>`
      : `<circle cx="40" cy="40" r="7" fill="${c.mainLight}"/><circle cx="56" cy="39" r="8" fill="${c.main}"/><circle cx="40" cy="40" r="3" fill="none" stroke="${c.main}" stroke-width="0.8"/>`;
  return `${groundShadow(c, 34)}
${contents}
<path d="M30 46 Q30 30 40 32" stroke="${c.woodDark}" stroke-width="2.4" fill="none" stroke-linecap="round"/>
<path d="M70 46 Q70 30 60 32" stroke="${c.woodDark}" stroke-width="2.4" fill="none" stroke-linecap="round"/>
<polygon points="20,46 80,46 74,84 26,84" fill="${c.wood}"/>
<g stroke="${c.woodDark}" stroke-width="0.8" fill="none" opacity="0.45">${rows.join("")}${cols.join("")}</g>
<rect x="18" y="43" width="64" height="6" rx="3" fill="${c.woodDark}"/>
<rect x="36" y="60" width="28" height="8" rx="1.5" fill="${c.main}"/>`;
};

const drawCandle: Draw = (c, seed) => {
  const jar = seed % 2 === 0;
  const body = jar
    ? `<rect x="34" y="44" width="32" height="40" rx="6" fill="${c.main}"/>
<rect x="34" y="44" width="32" height="6" rx="3" fill="${c.mainLight}"/>
<rect x="38" y="58" width="24" height="14" rx="1.5" fill="${c.cream}"/>
<rect x="42" y="63" width="16" height="1.4" fill="${c.mainDark}" opacity="0.4"/>
<rect x="38" y="50" width="3" height="30" rx="1.5" fill="#ffffff" opacity="0.22"/>`
    : `<rect x="38" y="40" width="24" height="44" rx="2" fill="${c.cream}"/>
<path d="M38 46 Q42 49 44 45" stroke="${c.pale}" stroke-width="1.6" fill="none"/>
<rect x="34" y="80" width="32" height="4" rx="2" fill="${c.mainDark}"/>
<path d="M30 84 V34 Q30 22 50 22 Q70 22 70 34 V84" fill="${c.mainLight}" opacity="0.35" stroke="${c.main}" stroke-width="0.8"/>`;
  const wickTop = jar ? 44 : 40;
  return `<radialGradient id="flameGlow" cx="50%" cy="50%" r="50%"><stop offset="0%" stop-color="#ffe7a6" stop-opacity="0.9"/><stop offset="100%" stop-color="#ffe7a6" stop-opacity="0"/></radialGradient>
<circle cx="50" cy="${wickTop - 10}" r="22" fill="url(#flameGlow)"/>
${groundShadow(c, 22)}
${body}
<line x1="50" y1="${wickTop}" x2="50" y2="${wickTop - 4}" stroke="#3b3430" stroke-width="0.9"/>
<path d="M50 ${wickTop - 17} Q56 ${wickTop - 8} 50 ${wickTop - 3.5} Q44 ${wickTop - 8} 50 ${wickTop - 17} Z" fill="#f6b84b"/>
<path d="M50 ${wickTop - 11} Q53 ${wickTop - 6} 50 ${wickTop - 4} Q47 ${wickTop - 6} 50 ${wickTop - 11} Z" fill="#fff1c2"/>`;
};

const drawMirror: Draw = (c, seed) => {
  const round = seed % 2 === 1;
  if (round) {
    return `<linearGradient id="glass" x1="0" y1="0" x2="1" y2="1"><stop offset="0%" stop-color="${c.pale}"/><stop offset="100%" stop-color="${c.mainLight}"/></linearGradient>
${groundShadow(c, 20)}
<circle cx="50" cy="46" r="32" fill="${c.wood}"/>
<circle cx="50" cy="46" r="28" fill="url(#glass)"/>
<path d="M34 40 L46 26 M36 50 L56 28" stroke="#ffffff" stroke-width="2.2" stroke-linecap="round" opacity="0.55"/>`;
  }
  return `<linearGradient id="glass" x1="0" y1="0" x2="1" y2="1"><stop offset="0%" stop-color="${c.pale}"/><stop offset="100%" stop-color="${c.mainLight}"/></linearGradient>
${groundShadow(c, 24)}
<path d="M28 85 V38 A22 22 0 0 1 72 38 V85 Z" fill="${c.mainDark}"/>
<path d="M31.5 82 V38 A18.5 18.5 0 0 1 68.5 38 V82 Z" fill="url(#glass)"/>
<path d="M38 50 L52 30 M40 62 L62 34" stroke="#ffffff" stroke-width="2.2" stroke-linecap="round" opacity="0.55"/>`;
};

const drawRug: Draw = (c, seed) => {
  const fringe: string[] = [];
  for (let x = 24; x <= 76; x += 2.6) {
    fringe.push(`<line x1="${r(x)}" y1="14" x2="${r(x)}" y2="10" /><line x1="${r(x)}" y1="86" x2="${r(x)}" y2="90" />`);
  }
  const diamonds: string[] = [];
  const n = 3 + (seed % 2);
  for (let i = 0; i < n; i++) {
    const cy = 26 + ((86 - 26 - 12) * (i + 0.5)) / n;
    diamonds.push(
      `<polygon points="50,${r(cy - 8)} 60,${r(cy)} 50,${r(cy + 8)} 40,${r(cy)}" fill="${i % 2 ? c.accent : c.main}"/>`,
    );
  }
  return `<ellipse cx="50" cy="88" rx="34" ry="2.6" fill="${c.shadow}" opacity="0.08"/>
<g stroke="${c.mainLight}" stroke-width="0.8">${fringe.join("")}</g>
<rect x="22" y="14" width="56" height="72" rx="1.5" fill="${c.cream}"/>
<rect x="25.5" y="17.5" width="49" height="65" fill="none" stroke="${c.main}" stroke-width="2.2"/>
<rect x="29" y="21" width="42" height="58" fill="none" stroke="${c.mainLight}" stroke-width="0.9" stroke-dasharray="2 1.5"/>
${diamonds.join("")}`;
};

const drawTowel: Draw = (c, seed) => {
  const colours = [c.main, c.cream, c.mainLight, c.accent];
  const rolled = seed % 2 === 0;
  const stack = [
    { x: 20, y: 68, w: 60, h: 16, fill: colours[0] },
    { x: 22, y: 54, w: 56, h: 14, fill: colours[1] },
    { x: 24, y: 41, w: 52, h: 13, fill: colours[2] },
  ]
    .map(
      (t) =>
        `<rect x="${t.x}" y="${t.y}" width="${t.w}" height="${t.h}" rx="5" fill="${t.fill}"/>
<rect x="${t.x + t.w - 12}" y="${t.y}" width="2.2" height="${t.h}" fill="${c.mainDark}" opacity="0.18"/>
<rect x="${t.x + t.w - 8}" y="${t.y}" width="1.2" height="${t.h}" fill="${c.mainDark}" opacity="0.18"/>`,
    )
    .join("");
  const top = rolled
    ? `<rect x="30" y="29" width="40" height="12" rx="6" fill="${c.accent}"/><circle cx="70" cy="35" r="6" fill="${c.accent}"/><circle cx="70" cy="35" r="3.6" fill="none" stroke="${c.pale}" stroke-width="0.8"/><circle cx="70" cy="35" r="1.4" fill="none" stroke="${c.pale}" stroke-width="0.8"/>`
    : `<ellipse cx="40" cy="38" rx="7" ry="3.2" fill="${c.pale}"/><ellipse cx="40" cy="37" rx="4" ry="1.5" fill="${c.cream}"/>`;
  return `${groundShadow(c, 34)}
${stack}
${top}`;
};

const drawBox: Draw = (c, seed) => {
  const handle = seed % 2 === 0;
  return `${groundShadow(c, 32)}
<rect x="22" y="44" width="56" height="40" rx="2" fill="${c.main}"/>
<rect x="19" y="36" width="62" height="11" rx="2.5" fill="${c.mainLight}"/>
<rect x="19" y="45" width="62" height="2" fill="${c.mainDark}" opacity="0.2"/>
${
  handle
    ? `<rect x="40" y="58" width="20" height="6" rx="3" fill="${c.mainDark}" opacity="0.55"/>`
    : `<rect x="38" y="56" width="24" height="14" rx="1" fill="${c.cream}"/><rect x="42" y="61" width="16" height="1.4" fill="${c.mainDark}" opacity="0.4"/><rect x="42" y="64.5" width="10" height="1.4" fill="${c.mainDark}" opacity="0.3"/>`
}
<path d="M26 50 V80" stroke="#ffffff" stroke-width="1.6" stroke-linecap="round" opacity="0.25"/>`;
};

const DRAWERS: Record<Motif, Draw> = {
  duvet: drawDuvet,
  pillow: drawPillow,
  throw: drawThrow,
  sheet: drawSheet,
  mattress: drawMattress,
  chair: drawChair,
  table: drawTable,
  lamp: drawLamp,
  vase: drawVase,
  frame: drawFrame,
  basket: drawBasket,
  candle: drawCandle,
  mirror: drawMirror,
  rug: drawRug,
  towel: drawTowel,
  box: drawBox,
};

// ───────────────────────────── composition ─────────────────────────────

/** Builds the SVG markup for one product/post illustration (exported for tests). */
export function demoImageSvg(opts: DemoImageOptions): string {
  const width = Math.max(16, Math.round(opts.width));
  const height = Math.max(16, Math.round(opts.height));
  const hue = ((Math.round(opts.hue) % 360) + 360) % 360;
  const seed = hashString(opts.label ?? `${opts.motif}-${hue}`);
  const c = palette(hue, seed);
  const draw = DRAWERS[opts.motif] ?? drawBox;

  const size = Math.min(width, height) * 0.78;
  const scale = size / 100;
  const tx = (width - size) / 2;
  const ty = (height - size) / 2 + Math.min(width, height) * 0.02;
  const horizon = ty + 72 * scale;

  // Two soft background circles whose placement depends on the seed.
  const bx = ((seed >>> 4) % 100) / 100;
  const by = ((seed >>> 12) % 100) / 100;
  const blobs = `<circle cx="${r(width * (0.12 + bx * 0.2))}" cy="${r(height * (0.14 + by * 0.2))}" r="${r(Math.min(width, height) * 0.28)}" fill="#ffffff" opacity="0.35"/>
<circle cx="${r(width * (0.82 - by * 0.15))}" cy="${r(height * (0.3 + bx * 0.15))}" r="${r(Math.min(width, height) * 0.16)}" fill="${c.mainLight}" opacity="0.35"/>`;

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0%" stop-color="${c.bgTop}"/><stop offset="100%" stop-color="${c.bgBottom}"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="url(#bg)"/>
${blobs}
<rect x="0" y="${r(horizon)}" width="${width}" height="${r(height - horizon)}" fill="${c.floor}" opacity="0.55"/>
<g transform="translate(${r(tx)} ${r(ty)}) scale(${(Math.round(scale * 10000) / 10000).toString()})">
${draw(c, seed)}
</g>
</svg>`;
}

export async function renderDemoImage(opts: {
  hue: number;
  motif: Motif;
  width: number;
  height: number;
  label?: string;
}): Promise<Buffer> {
  const svg = demoImageSvg(opts);
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
}

// ───────────────────────────── hero scene ─────────────────────────────

/** SVG for the 1600×900 home-page hero: a calm bedroom in soft blues and neutrals. */
export function demoHeroSvg(): string {
  const W = 1600;
  const H = 900;
  const wallTop = "#e3eaf1";
  const wallBottom = "#d3dde8";
  const floor = "#dccbb4";
  const floorDark = "#cdb99f";

  const planks: string[] = [];
  for (let i = 1; i < 6; i++) {
    const y = 730 + i * i * 6.5;
    planks.push(`<line x1="0" y1="${r(y)}" x2="${W}" y2="${r(y)}"/>`);
  }

  const headboardChannels: string[] = [];
  for (let x = 712; x < 1330; x += 52) {
    headboardChannels.push(`<line x1="${x}" y1="368" x2="${x}" y2="560"/>`);
  }

  const duvetStitches: string[] = [];
  for (let x = 700; x < 1360; x += 110) {
    duvetStitches.push(`<path d="M${x} 650 Q${x + 4} 700 ${x - 6} 752"/>`);
  }

  const curtainFolds = (x0: number) =>
    [0, 1, 2, 3]
      .map((i) => `<path d="M${x0 + 12 + i * 16} 104 Q${x0 + 8 + i * 16} 400 ${x0 + 16 + i * 16} 712"/>`)
      .join("");

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<defs>
<linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0%" stop-color="${wallTop}"/><stop offset="100%" stop-color="${wallBottom}"/></linearGradient>
<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0%" stop-color="#b9d3ea"/><stop offset="100%" stop-color="#eef4f9"/></linearGradient>
<linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0%" stop-color="${floor}"/><stop offset="100%" stop-color="${floorDark}"/></linearGradient>
<linearGradient id="duvet" x1="0" y1="0" x2="0" y2="1"><stop offset="0%" stop-color="#f7f8fa"/><stop offset="100%" stop-color="#e4e9ef"/></linearGradient>
<radialGradient id="lampGlow" cx="50%" cy="50%" r="50%"><stop offset="0%" stop-color="#fff3d1" stop-opacity="0.85"/><stop offset="100%" stop-color="#fff3d1" stop-opacity="0"/></radialGradient>
<radialGradient id="sunPatch" cx="50%" cy="50%" r="50%"><stop offset="0%" stop-color="#ffffff" stop-opacity="0.45"/><stop offset="100%" stop-color="#ffffff" stop-opacity="0"/></radialGradient>
</defs>

<!-- wall and floor -->
<rect width="${W}" height="${H}" fill="url(#wall)"/>
<rect x="0" y="712" width="${W}" height="${H - 712}" fill="url(#floor)"/>
<g stroke="#c7b296" stroke-width="2" opacity="0.5">${planks.join("")}</g>
<rect x="0" y="700" width="${W}" height="14" fill="#eef1f4"/>
<rect x="0" y="712" width="${W}" height="3" fill="#c3cdd8" opacity="0.6"/>

<!-- window with sky, hills and curtains -->
<rect x="150" y="110" width="380" height="470" rx="6" fill="#f8f7f3"/>
<rect x="170" y="130" width="340" height="430" fill="url(#sky)"/>
<ellipse cx="260" cy="210" rx="60" ry="16" fill="#ffffff" opacity="0.8"/>
<ellipse cx="300" cy="200" rx="40" ry="14" fill="#ffffff" opacity="0.8"/>
<ellipse cx="430" cy="260" rx="46" ry="12" fill="#ffffff" opacity="0.6"/>
<path d="M170 470 Q260 410 350 450 Q430 420 510 446 V560 H170 Z" fill="#b7cdb9"/>
<path d="M170 505 Q300 470 510 500 V560 H170 Z" fill="#9fbaa3"/>
<rect x="335" y="130" width="10" height="430" fill="#f8f7f3"/>
<rect x="170" y="340" width="340" height="10" fill="#f8f7f3"/>
<rect x="140" y="572" width="400" height="16" rx="3" fill="#f3f1ec"/>
<polygon points="190,712 560,712 700,900 170,900" fill="url(#sunPatch)" opacity="0.8"/>
<rect x="106" y="94" width="468" height="8" rx="4" fill="#8b7a66"/>
<path d="M112 100 H184 Q178 420 196 714 H104 Q96 420 112 100 Z" fill="#efe9df"/>
<g stroke="#ddd3c4" stroke-width="3" fill="none">${curtainFolds(112)}</g>
<path d="M496 100 H568 Q578 420 574 714 H482 Q502 420 496 100 Z" fill="#efe9df"/>
<g stroke="#ddd3c4" stroke-width="3" fill="none">${curtainFolds(494)}</g>

<!-- framed art above the bed -->
<rect x="822" y="160" width="150" height="190" rx="3" fill="#b89a78"/>
<rect x="832" y="170" width="130" height="170" fill="#f6f3ec"/>
<path d="M856 318 V250 A41 41 0 0 1 938 250 V318 Z" fill="#9fb4c8"/>
<path d="M876 318 V262 A21 21 0 0 1 918 262 V318 Z" fill="#d9c3a5"/>
<rect x="1010" y="160" width="150" height="190" rx="3" fill="#b89a78"/>
<rect x="1020" y="170" width="130" height="170" fill="#f6f3ec"/>
<circle cx="1085" cy="232" r="30" fill="#c9a98a"/>
<path d="M1040 318 Q1085 262 1130 318 Z" fill="#8ea7bd"/>

<!-- floor rug -->
<polygon points="560,790 1480,790 1560,880 470,880" fill="#eee7da"/>
<polygon points="586,800 1456,800 1526,870 504,870" fill="none" stroke="#c9b9a0" stroke-width="3"/>

<!-- bed: headboard, frame, legs -->
<rect x="660" y="350" width="720" height="260" rx="34" fill="#a9b8c7"/>
<g stroke="#95a6b7" stroke-width="3">${headboardChannels.join("")}</g>
<rect x="640" y="740" width="760" height="40" rx="6" fill="#b6977a"/>
<rect x="662" y="780" width="16" height="34" rx="3" fill="#8f725a"/>
<rect x="1362" y="780" width="16" height="34" rx="3" fill="#8f725a"/>
<rect x="650" y="660" width="740" height="90" rx="12" fill="#f4f1ea"/>

<!-- pillows -->
<path d="M700 520 Q800 500 900 520 Q912 570 900 620 Q800 636 700 620 Q688 570 700 520 Z" fill="#f7f5f0"/>
<path d="M940 520 Q1040 500 1140 520 Q1152 570 1140 620 Q1040 636 940 620 Q928 570 940 520 Z" fill="#f7f5f0"/>
<path d="M1170 526 Q1260 508 1350 526 Q1360 572 1350 618 Q1260 632 1170 618 Q1160 572 1170 526 Z" fill="#f1eee8"/>
<path d="M760 570 Q840 554 920 570 Q930 606 920 642 Q840 656 760 642 Q750 606 760 570 Z" fill="#8fa7bf"/>
<path d="M960 572 Q1040 556 1120 572 Q1130 608 1120 644 Q1040 658 960 644 Q950 608 960 572 Z" fill="#8fa7bf"/>
<rect x="1010" y="604" width="190" height="56" rx="22" fill="#c9d3b8"/>
<path d="M1030 632 H1180" stroke="#b3c09f" stroke-width="3" stroke-dasharray="8 6"/>

<!-- duvet with folded-back band and stitching, draping over the sides -->
<path d="M626 650 Q1020 632 1414 650 Q1428 720 1420 784 Q1020 800 620 784 Q612 720 626 650 Z" fill="url(#duvet)"/>
<path d="M626 650 Q1020 632 1414 650 L1416 680 Q1020 664 624 680 Z" fill="#dde5ee"/>
<path d="M630 682 Q1020 666 1412 682" stroke="#c7d3e0" stroke-width="3" fill="none"/>
<g stroke="#d5dde7" stroke-width="3" stroke-dasharray="10 8" fill="none">${duvetStitches.join("")}</g>

<!-- throw across the foot of the bed -->
<path d="M1180 664 Q1260 656 1330 662 L1336 790 Q1258 800 1176 792 Z" fill="#7f97b0"/>
<path d="M1196 664 V792 M1214 662 V794 M1300 660 V794" stroke="#a9bccd" stroke-width="5"/>
<g stroke="#7f97b0" stroke-width="3" stroke-linecap="round">${[1186, 1200, 1214, 1228, 1242, 1256, 1270, 1284, 1298, 1312, 1326]
    .map((x) => `<line x1="${x}" y1="792" x2="${x}" y2="808"/>`)
    .join("")}</g>

<!-- nightstand with lamp, book and plant -->
<circle cx="1500" cy="470" r="150" fill="url(#lampGlow)"/>
<rect x="1424" y="590" width="156" height="12" rx="4" fill="#b6977a"/>
<rect x="1432" y="602" width="140" height="118" rx="4" fill="#c8ad90"/>
<rect x="1444" y="616" width="116" height="42" rx="3" fill="#d6bfa4"/>
<circle cx="1502" cy="637" r="4" fill="#8f725a"/>
<rect x="1440" y="720" width="10" height="46" fill="#a3876b"/>
<rect x="1554" y="720" width="10" height="46" fill="#a3876b"/>
<path d="M1488 532 H1516 V540 C1536 548 1540 570 1530 584 C1524 590 1480 590 1474 584 C1464 570 1468 548 1488 540 Z" fill="#e9e2d6"/>
<rect x="1476" y="584" width="52" height="8" rx="4" fill="#cfc3b1"/>
<rect x="1500" y="500" width="4" height="34" fill="#9b8a78"/>
<polygon points="1460,450 1544,450 1566,510 1438,510" fill="#fbf4e4"/>
<path d="M1460 450 H1544" stroke="#e6dcc8" stroke-width="4"/>
<rect x="1440" y="578" width="34" height="8" rx="2" fill="#9fb4c8"/>
<rect x="1444" y="570" width="28" height="8" rx="2" fill="#d9c3a5"/>

<!-- plant in a ceramic pot between window and bed -->
<path d="M578 660 Q560 560 522 520" stroke="#6f8f72" stroke-width="4" fill="none"/>
<path d="M586 660 Q600 560 640 512" stroke="#6f8f72" stroke-width="4" fill="none"/>
<path d="M582 660 Q578 580 590 470" stroke="#6f8f72" stroke-width="4" fill="none"/>
<ellipse cx="526" cy="524" rx="26" ry="11" fill="#88a98a" transform="rotate(35 526 524)"/>
<ellipse cx="556" cy="566" rx="24" ry="10" fill="#7a9c7d" transform="rotate(-25 556 566)"/>
<ellipse cx="636" cy="516" rx="26" ry="11" fill="#7a9c7d" transform="rotate(-35 636 516)"/>
<ellipse cx="606" cy="572" rx="22" ry="9" fill="#93b295" transform="rotate(25 606 572)"/>
<ellipse cx="590" cy="472" rx="24" ry="10" fill="#88a98a" transform="rotate(-75 590 472)"/>
<path d="M552 660 H616 L608 732 Q584 740 560 732 Z" fill="#e2d5c3"/>
<rect x="548" y="654" width="72" height="12" rx="4" fill="#d5c6b1"/>
</svg>`;
}

export async function renderDemoHeroImage(): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(demoHeroSvg())).webp({ quality: 80 }).toBuffer();
}
