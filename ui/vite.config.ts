import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// Tauri loads the dev server from a fixed URL (devUrl) and the built files from disk,
// hence the fixed port and the relative base.
export default defineConfig({
  plugins: [react()],
  base: "./",
  clearScreen: false,
  server: { port: 1420, strictPort: true },
  preview: { port: 1421, strictPort: false },
  // Loaded from disk by the desktop app, so one larger bundle costs little; the highlighter
  // grammars are most of it.
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 1024 },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
