/**
 * The layers of docs/architecture.md, checked by reading every import in src/: services import the
 * core and never each other, nothing below an edge imports an edge, a backend is reached only
 * through its port, and no module imports itself back at run time.
 */

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

interface Import {
  /** The importing file, relative to src/ (`dream/apply/apply-plan.ts`). */
  readonly from: string;
  /** The imported file, relative to src/. */
  readonly to: string;
  /** `import type` or every name `type`: gone at run time. */
  readonly typeOnly: boolean;
  /** `import("…")`: loaded when called, not when the importer loads. */
  readonly dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const STATIC = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+"(\.[^"]+)"/gm;
const DYNAMIC = /import\(\s*"(\.[^"]+)"\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const from = relative(SRC, file);
  const target = (specifier: string) =>
    relative(SRC, resolve(dirname(file), specifier)).replace(/\.js$/, ".ts");
  const found: Import[] = [];
  for (const match of text.matchAll(STATIC)) {
    const [, , typeKeyword, clause = "", specifier = ""] = match;
    const names = /\{([^}]*)\}/.exec(clause)?.[1];
    const everyNameTyped =
      names !== undefined &&
      !/^\s*[A-Za-z_$]/.test(clause.replace(/\{[^}]*\}/, "").replace(/,/g, "")) &&
      names
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== "")
        .every((name) => name.startsWith("type "));
    found.push({
      from,
      to: target(specifier),
      typeOnly: typeKeyword !== undefined || everyNameTyped,
      dynamic: false,
    });
  }
  for (const match of text.matchAll(DYNAMIC)) {
    found.push({ from, to: target(match[1] ?? ""), typeOnly: false, dynamic: true });
  }
  return found;
}

const IMPORTS = sourceFiles(SRC).flatMap(importsOf);

/** The top folder of a src/ path (`dream`), or the file itself for top-level files (`errors.ts`). */
const layerOf = (path: string) => path.split("/")[0] ?? path;

const EDGES = ["cli", "mcp", "http"];
const SERVICES = ["memory", "dream", "sleep"];
const COMPOSITION = ["sdk", "config"];
const PORTS_AND_HELPERS = [
  "store",
  "embed",
  "llm",
  "text",
  "secrets",
  "injection",
  "policy",
  "filters",
  "search",
];

/** What each layer must never import (type imports included). */
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(
    SERVICES.map((service) => [
      service,
      [...SERVICES.filter((other) => other !== service), ...COMPOSITION, "edge", ...EDGES],
    ]),
  ),
  core: [...SERVICES, ...COMPOSITION, "edge", ...EDGES],
  edge: [...SERVICES, ...COMPOSITION, ...EDGES],
  ...Object.fromEntries(COMPOSITION.map((layer) => [layer, ["edge", ...EDGES]])),
  ...Object.fromEntries(
    PORTS_AND_HELPERS.map((layer) => [layer, [...SERVICES, ...COMPOSITION, "edge", ...EDGES]]),
  ),
  mcp: ["cli", "http"],
};

describe("the layers of src/", () => {
  it("reads the imports it checks", () => {
    expect(IMPORTS.length).toBeGreaterThan(300);
    expect(IMPORTS).toContainEqual({
      from: "sdk/memory.ts",
      to: "dream/dream-api.ts",
      typeOnly: false,
      dynamic: false,
    });
  });

  it("keeps every layer off the layers above it, and services off each other", () => {
    const broken = IMPORTS.filter((edge) => FORBIDDEN[layerOf(edge.from)]?.includes(layerOf(edge.to))).map(
      (edge) => `${edge.from} → ${edge.to}`,
    );
    expect(broken).toEqual([]);
  });

  it("lets ports and helpers use only the core's scope vocabulary", () => {
    const broken = IMPORTS.filter(
      (edge) =>
        PORTS_AND_HELPERS.includes(layerOf(edge.from)) &&
        layerOf(edge.to) === "core" &&
        edge.to !== "core/scope.ts",
    ).map((edge) => `${edge.from} → ${edge.to}`);
    expect(broken).toEqual([]);
  });

  it("keeps core/scope.ts a leaf", () => {
    const leafImports = IMPORTS.filter((edge) => edge.from === "core/scope.ts").map((edge) => edge.to);
    expect(leafImports).toEqual(["errors.ts"]);
  });

  it("reaches a store backend only from the composition root and the public exports", () => {
    const broken = IMPORTS.filter((edge) =>
      ["store/sqlite/", "store/postgres/"].some(
        (backend) =>
          edge.to.startsWith(backend) &&
          !edge.from.startsWith(backend) &&
          // A type names the settings a caller passes; it loads nothing.
          !edge.typeOnly &&
          !["sdk/create-context.ts", "sdk/open-store.ts", "index.ts"].includes(edge.from),
      ),
    ).map((edge) => `${edge.from} → ${edge.to}`);
    expect(broken).toEqual([]);
  });

  it("has no import cycle at run time", () => {
    const graph = new Map<string, string[]>();
    for (const edge of IMPORTS) {
      if (edge.typeOnly || edge.dynamic) continue;
      graph.set(edge.from, [...(graph.get(edge.from) ?? []), edge.to]);
    }
    const state = new Map<string, "visiting" | "done">();
    const cycles: string[] = [];
    const visit = (node: string, path: readonly string[]) => {
      if (state.get(node) === "done") return;
      if (state.get(node) === "visiting") {
        cycles.push([...path.slice(path.indexOf(node)), node].join(" → "));
        return;
      }
      state.set(node, "visiting");
      for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
      state.set(node, "done");
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });
});
