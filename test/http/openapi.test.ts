/**
 * `/openapi.json` against the app it describes: OpenAPI 3.1 at the package's version, every route
 * of the app described with its method and nothing described that the app lacks, each operation
 * with a summary and a 200, and every `$ref` pointing inside the document.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRestApp } from "../../src/http/app.js";
import { startTestServer, type TestServer } from "./rest-server.js";

type Json = Record<string, unknown>;

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
/** In front of the API, not part of it. */
const NOT_API = new Set(["/", "/ui/:file", "/openapi.json"]);

/** `/v1/memories/:id/` and `/v1/memories/{id}` alike: path parameters as `{id}`, no trailing slash. */
const normalise = (path: string) => path.replace(/:([A-Za-z0-9_]+)/gu, "{$1}").replace(/(?<=.)\/$/u, "");

/** Every `$ref` in a value, with where it was found. */
function refsOf(value: unknown, at = "#"): { at: string; ref: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => refsOf(item, `${at}/${index}`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === "$ref" && typeof item === "string" ? [{ at, ref: item }] : refsOf(item, `${at}/${key}`),
  );
}

/** What a local `$ref` (`#/components/schemas/Memory`) points at, or undefined. */
function resolve(document: Json, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    const name = part.replace(/~1/gu, "/").replace(/~0/gu, "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, name)) return undefined;
    node = (node as Json)[name];
  }
  return node;
}

describe("/openapi.json", () => {
  let server: TestServer;
  let document: Json;
  let paths: Record<string, Json>;

  beforeAll(async () => {
    server = await startTestServer();
    const response = await server.call("/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/u);
    document = response.body as Json;
    paths = document.paths as Record<string, Json>;
  });
  afterAll(async () => {
    await server.close();
  });

  /** `METHOD {path}` of every operation the document describes. */
  const described = () =>
    Object.entries(paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method] !== undefined).map(
        (method) => `${method.toUpperCase()} ${normalise(path)}`,
      ),
    );

  /** `METHOD {path}` of every route the app serves. */
  const served = () => {
    const app = createRestApp({} as never, { host: "127.0.0.1", keys: async () => [], requireKeys: false });
    return [
      ...new Set(
        app.routes
          .filter((route) => route.method !== "ALL" && !NOT_API.has(route.path))
          .map((route) => `${route.method} ${normalise(route.path)}`),
      ),
    ];
  };

  it("is OpenAPI 3.1 at the package's version", () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/u);
    expect(document.info).toMatchObject({ title: expect.any(String), version: PACKAGE_VERSION });
  });

  it("describes every route of the app with its method, and nothing the app does not serve", () => {
    const routes = served();
    // The Mem0 routes, Lucid's dream, sleep and store routes: dozens, not an empty app.
    expect(routes.length).toBeGreaterThan(30);
    expect(routes).toContain("POST /lucid/v1/dream/runs/{id}/undo");
    expect([...described()].sort()).toEqual([...routes].sort());
  });

  it("gives every operation a summary and a 200 response", () => {
    for (const [path, item] of Object.entries(paths)) {
      for (const method of METHODS) {
        const operation = item[method] as Json | undefined;
        if (operation === undefined) continue;
        expect(operation.summary, `${method} ${path}`).toEqual(expect.stringMatching(/\S/u));
        expect((operation.responses as Json | undefined)?.["200"], `${method} ${path}`).toBeDefined();
      }
    }
    expect(described().length).toBeGreaterThan(30);
  });

  it("resolves every $ref inside the document", () => {
    const refs = refsOf(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const { at, ref } of refs) expect(resolve(document, ref), `${ref} at ${at}`).toBeDefined();
  });

  it("declares every path parameter its path names", () => {
    for (const [path, item] of Object.entries(paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/gu)].map((match) => match[1]);
      for (const method of METHODS) {
        const operation = item[method] as Json | undefined;
        if (operation === undefined) continue;
        const declared = [...((item.parameters as Json[]) ?? []), ...((operation.parameters as Json[]) ?? [])]
          .filter((parameter) => parameter.in === "path")
          .map((parameter) => parameter.name);
        expect([...declared].sort(), `${method} ${path}`).toEqual([...names].sort());
      }
    }
  });
});
