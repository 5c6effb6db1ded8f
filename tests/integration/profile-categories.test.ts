import { describe, expect, it } from "vitest";
import { categorise, topFrames, type CpuProfile } from "../../scripts/profile/categories";

/** A profile of nested frames; each sample names its innermost node, 1 ms apart. */
function profile(stacks: { frames: [string, string][]; samples: number }[]): CpuProfile {
  const nodes: CpuProfile["nodes"] = [{ id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 }, children: [] }];
  const samples: number[] = [];
  for (const stack of stacks) {
    let parent = nodes[0]!;
    for (const [functionName, url] of stack.frames) {
      const node = { id: nodes.length + 1, callFrame: { functionName, url, lineNumber: 10 }, children: [] as number[] };
      parent.children!.push(node.id);
      nodes.push(node);
      parent = node;
    }
    for (let i = 0; i < stack.samples; i++) samples.push(parent.id);
  }
  return { nodes, startTime: 0, endTime: samples.length * 1000, samples, timeDeltas: samples.map(() => 1000) };
}

const RR = "file:///app/node_modules/react-router/dist/development/chunk.mjs";
const BUILD = "file:///app/build/server/index.js";

describe("npm run profile:request's sums", () => {
  const p = profile([
    // The shop's middleware calling React Router's matching, whose anonymous callback does the work.
    { frames: [["handler", BUILD], ["matchRoutesImpl", RR], ["flattenRoute", RR], ["", RR]], samples: 6 },
    // A loader's own code under React Router's handler: the shop's, not the framework's.
    { frames: [["requestHandler", RR], ["loader", BUILD]], samples: 3 },
    { frames: [["(garbage collector)", ""]], samples: 1 },
  ]);
  const all = { fromEndMs: 1e9, toEndMs: 0 };

  it("gives each sample to the innermost frame a kind claims", () => {
    expect(Object.fromEntries(categorise(p, all))).toEqual({
      "route matching (React Router)": 0.6,
      "the shop's own code (loaders, middleware)": 0.3,
      "garbage collection": 0.1,
    });
  });

  it("counts only the window asked for, and names the top frames with their file and line", () => {
    // The last 4 ms: 3 of the loader's samples and the collector's.
    expect(Object.fromEntries(categorise(p, { fromEndMs: 3.5, toEndMs: 0 }))).toEqual({
      "the shop's own code (loaders, middleware)": 0.75,
      "garbage collection": 0.25,
    });
    expect(topFrames(p, all, 1)).toEqual([["(anonymous) react-router/dist/development/chunk.mjs:11", 0.6]]);
  });
});
