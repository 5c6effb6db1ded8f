/**
 * A V8 CPU profile (what `node --cpu-prof` writes) summed by kind of work. Each sample goes to the
 * innermost frame of its stack that a kind claims, so a loader's own code is not counted as the
 * framework that called it.
 */
export type CallFrame = { functionName: string; url: string; lineNumber: number };
export type CpuProfile = {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};
/** The part of the profile to count, in ms before its end. */
export type Window = { fromEndMs: number; toEndMs: number };

const KINDS: [string, (f: CallFrame) => boolean][] = [
  ["idle", (f) => f.functionName === "(idle)"],
  ["garbage collection", (f) => f.functionName === "(garbage collector)"],
  [
    "route matching (React Router)",
    (f) =>
      /react-router/.test(f.url) &&
      /^(matchRoutesImpl|matchServerRoutes|flattenAndRankRoutes|flattenRoutes?|rankRouteBranches|computeScore|matchRouteBranch|matchPathImpl|matchPath|compilePath|joinPaths|removeDoubleSlashes|normalizePathname)$/.test(f.functionName),
  ],
  ["serialisation (turbo-stream)", (f) => /react-router/.test(f.url) && /^(stringify|flattenValue|encode)/.test(f.functionName)],
  ["query building (drizzle)", (f) => /drizzle-orm/.test(f.url)],
  ["database client (pg)", (f) => /node_modules\/pg(-protocol|-pool)?\//.test(f.url) && !/ReadyForQuery|_pulseQueue|_release|queueCallback|_acquireClient/.test(f.functionName)],
  ["compression", (f) => /node_modules\/compression\//.test(f.url)],
  ["Web Request/Response objects (undici)", (f) => /undici|abort_controller/.test(f.url)],
  // Its anonymous callbacks belong to whatever named React Router function runs them (route matching's flattening is one).
  ["React Router request handling", (f) => /react-router/.test(f.url) && f.functionName !== ""],
  ["the shop's own code (loaders, middleware)", (f) => /build\/server\//.test(f.url)],
  ["socket reads and writes", (f) => f.url === "" && /^(writev|writeBuffer|writeUtf8String|writeLatin1String|onStreamRead|read)$/.test(f.functionName)],
  ["express", (f) => /node_modules\/(express|router)\//.test(f.url)],
];
const OTHER = "other (Node's internals)";

function samplesIn(profile: CpuProfile, window: Window) {
  let t = profile.startTime;
  const times: number[] = [];
  for (const d of profile.timeDeltas) times.push((t += d));
  const end = times.at(-1) ?? profile.endTime;
  const from = end - window.fromEndMs * 1000;
  const to = end - window.toEndMs * 1000;
  return profile.samples.map((id, i) => ({ id, us: profile.timeDeltas[i]!, at: times[i]! })).filter((s) => s.at >= from && s.at <= to);
}

function parents(profile: CpuProfile) {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return parent;
}

/** Each kind's share of the window's samples, largest first. */
export function categorise(profile: CpuProfile, window: Window): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = parents(profile);
  const totals = new Map<string, number>();
  let total = 0;
  for (const s of samplesIn(profile, window)) {
    total += s.us;
    let kind = OTHER;
    outer: for (let c: number | undefined = s.id; c !== undefined; c = parent.get(c)) {
      const frame = byId.get(c)!.callFrame;
      for (const [name, claims] of KINDS)
        if (claims(frame)) {
          kind = name;
          break outer;
        }
    }
    totals.set(kind, (totals.get(kind) ?? 0) + s.us);
  }
  return [...totals].map(([k, us]): [string, number] => [k, total ? us / total : 0]).sort((a, b) => b[1] - a[1]);
}

const shortUrl = (url: string) => url.replace(/.*node_modules\//, "").replace(/.*\/build\//, "build/");

/** The frames with the most own time (self time), as 'name file:line' and share. */
export function topFrames(profile: CpuProfile, window: Window, count: number): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const own = new Map<string, number>();
  let total = 0;
  for (const s of samplesIn(profile, window)) {
    total += s.us;
    const f = byId.get(s.id)!.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${shortUrl(f.url)}${f.url ? `:${f.lineNumber + 1}` : ""}`;
    own.set(key, (own.get(key) ?? 0) + s.us);
  }
  return [...own].map(([k, us]): [string, number] => [k, total ? us / total : 0]).sort((a, b) => b[1] - a[1]).slice(0, count);
}
