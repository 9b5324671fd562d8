#!/usr/bin/env node
import { runMain } from "../dist/cli/main.js";

// `lucid export | head`: the reader left; stop quietly, as other Unix tools do.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = await runMain(process.argv.slice(2));
