import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/cli/usage-error.js";
import { exitCodeOf, httpStatusOf, reportError } from "../../src/edge/error-report.js";
import { ERROR_CODES, ERROR_KIND_NAMES, ERROR_KINDS, LucidError } from "../../src/errors.js";
import { errorResult } from "../../src/mcp/tool-result.js";

describe("error reports at the edges", () => {
  it("gives every code of the catalogue a kind", () => {
    for (const code of ERROR_CODES) expect(ERROR_KIND_NAMES).toContain(ERROR_KINDS[code]);
    expect(ERROR_CODES).toEqual(expect.arrayContaining(["USAGE", "IO_ERROR", "INTERNAL"]));
  });

  it("reports a LucidError as it is, a failed file operation as IO_ERROR and anything else as INTERNAL", () => {
    expect(reportError(new LucidError("SCOPE_REQUIRED", "needs a scope"))).toMatchObject({
      code: "SCOPE_REQUIRED",
      kind: "input",
    });
    const enoent = Object.assign(new Error("ENOENT: no such file, open 'x.jsonl'"), { syscall: "open" });
    expect(reportError(enoent)).toMatchObject({ code: "IO_ERROR", kind: "io" });
    expect(reportError(new TypeError("x is undefined"))).toMatchObject({
      code: "INTERNAL",
      kind: "internal",
      message: "Unexpected error: x is undefined",
    });
  });

  it("gives the CLI, the MCP server and an HTTP edge the same code for the same failure", () => {
    for (const error of [
      new TypeError("bug"),
      new LucidError("RUN_NOT_FOUND", "no run"),
      new UsageError("bad flag"),
    ]) {
      const report = reportError(error);
      const tool = errorResult(error);
      expect(tool.isError).toBe(true);
      expect(tool.structuredContent).toMatchObject({ error: { code: report.code, message: report.message } });
    }
  });

  it("derives exit codes and HTTP statuses from the kind", () => {
    expect(exitCodeOf(reportError(new UsageError("unknown flag --x")).kind)).toBe(2);
    expect(exitCodeOf("input")).toBe(1);
    expect(exitCodeOf("internal")).toBe(1);
    expect(Object.fromEntries(ERROR_KIND_NAMES.map((kind) => [kind, httpStatusOf(kind)]))).toEqual({
      usage: 400,
      input: 400,
      not_found: 404,
      conflict: 409,
      unavailable: 503,
      config: 500,
      io: 500,
      interrupted: 503,
      internal: 500,
    });
  });
});
