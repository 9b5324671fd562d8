import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/ for the CLI tests only when it is older than src/ (a directory walk otherwise).
    globalSetup: ["test/cli/global-setup.ts"],
    // The local embedder loads a 28 MB model once per worker; two cores, two workers.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
