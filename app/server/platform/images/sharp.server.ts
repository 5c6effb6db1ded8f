import type SharpFn from "sharp";

let loaded: Promise<typeof SharpFn> | undefined;

/**
 * sharp, loaded on first use: most starts draw no image (a test shop, a server behind a warm
 * image cache), and importing it with its native library costs about 0.1 s of every start.
 */
export function loadSharp(): Promise<typeof SharpFn> {
  return (loaded ??= import("sharp").then((m) => m.default));
}
