import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Hashed file names under /assets (the gateway caches them for a year); index.html is the only
// unhashed file and is served no-cache. No inline script is emitted (CSP script-src 'self').
export default defineConfig({
  plugins: [react()],
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        manualChunks: (id) => {
          if (id.includes("recharts") || id.includes("d3-") || id.includes("@mantine/charts")) return "charts";
          if (id.includes("node_modules")) return "vendor";
          return undefined;
        },
      },
    },
  },
});
