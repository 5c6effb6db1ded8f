import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // SHOP_BUILD_DIR lets several builds sit side by side (parallel work, benchmarks).
  buildDirectory: process.env.SHOP_BUILD_DIR || "build",
} satisfies Config;
