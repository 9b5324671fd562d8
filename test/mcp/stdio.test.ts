/**
 * `lucid mcp` over stdio, driven by the SDK's real Client against the built binary in a temporary
 * home: tools, the add → search → update → history → delete round trip, bad input, scope isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJson, tempHomes } from "../cli/run-cli.js";
import { callTool, connectStdio, dataOf, type StdioSession, textOf } from "./mcp-client.js";

const newHome = tempHomes();

interface Added {
  results: { id: string; memory: string; event: string }[];
}

describe("lucid mcp over stdio", () => {
  const home = newHome();
  let alice: StdioSession;
  let bob: StdioSession;

  beforeAll(async () => {
    // One after the other: two processes creating a new store at the same instant race in its
    // schema migration (reported to the store's owner).
    alice = await connectStdio({ home, env: { LUCID_USER_ID: "alice", LUCID_DREAM: "off" } });
    bob = await connectStdio({ home, args: ["--user", "bob"], env: { LUCID_DREAM: "off" } });
  });
  afterAll(async () => {
    await Promise.all([alice?.close(), bob?.close()]);
  });

  it("lists the fourteen tools, each with an input schema", async () => {
    const { tools } = await alice.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "memory_add",
        "memory_delete",
        "memory_dream",
        "memory_event_list",
        "memory_event_status",
        "memory_get",
        "memory_history",
        "memory_list",
        "memory_search",
        "memory_sleep_events",
        "memory_recall",
        "memory_capture",
        "memory_session",
        "memory_update",
      ].sort(),
    );
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
    expect(alice.client.getServerVersion()?.name).toBe("lucid");
  });

  it("adds, searches, updates, keeps history and deletes", async () => {
    const added = await callTool(alice.client, "memory_add", {
      text: "User deploys the billing service with Kubernetes",
      category: "technical",
    });
    expect(added.isError).toBeFalsy();
    const id = dataOf<Added>(added).results[0]?.id as string;

    const found = await callTool(alice.client, "memory_search", { query: "how is billing deployed?" });
    expect(textOf(found)).toMatch(
      /^Found 1 memory:\n\n1\. User deploys the billing service with Kubernetes \[technical\] \(score: \d+%, id: /,
    );

    const updated = await callTool(alice.client, "memory_update", {
      memory_id: id,
      text: "User deploys the billing service with Nomad",
    });
    expect(textOf(updated)).toBe(`Updated memory ${id}: "User deploys the billing service with Nomad"`);

    const history = await runJson(["history", id], { home });
    const rows = history.json.history ?? history.json.results;
    expect(rows).toMatchObject([
      { action: "ADD", new_value: "User deploys the billing service with Kubernetes" },
      {
        action: "UPDATE",
        previous_value: "User deploys the billing service with Kubernetes",
        new_value: "User deploys the billing service with Nomad",
      },
    ]);

    const deleted = await callTool(alice.client, "memory_delete", { memory_id: id });
    expect(textOf(deleted)).toBe(`Deleted: "User deploys the billing service with Nomad" (id: ${id})`);
    const gone = await callTool(alice.client, "memory_get", { memory_id: id });
    expect(dataOf(gone)).toMatchObject({ error: { code: "MEMORY_NOT_FOUND" } });
  });

  it("turns bad arguments into tool errors and keeps serving", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["memory_search", {}, "INVALID_ARGUMENT"],
      ["memory_search", { query: "x", limit: 0 }, "INVALID_ARGUMENT"],
      ["memory_add", { text: 42 }, "INVALID_ARGUMENT"],
      ["memory_add", {}, "INVALID_ARGUMENT"],
      ["memory_add", { text: "   " }, "EMPTY_TEXT"],
      ["memory_list", { user_id: "has space" }, "INVALID_ARGUMENT"],
      ["memory_list", { filters: { created_at: { between: 1 } } }, "UNKNOWN_FILTER_OPERATOR"],
      ["memory_delete", { all: true }, "INVALID_ARGUMENT"],
      ["memory_event_status", { event_id: "evt_nope" }, "RUN_NOT_FOUND"],
    ];
    for (const [tool, args, code] of cases) {
      const result = await callTool(alice.client, tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result).startsWith(`${code}: `), textOf(result)).toBe(true);
      expect(dataOf(result)).toMatchObject({ error: { code } });
    }
    const alive = await callTool(alice.client, "memory_list");
    expect(alive.isError).toBeFalsy();
  });

  it("keeps two scopes apart: no leak by id, search, list or delete", async () => {
    const secret = await callTool(alice.client, "memory_add", {
      text: "Alice keeps her spare key under the blue flowerpot",
    });
    const id = dataOf<Added>(secret).results[0]?.id as string;
    await callTool(bob.client, "memory_add", { text: "Bob keeps his bike in the garage" });

    for (const [tool, args] of [
      ["memory_get", { memory_id: id }],
      ["memory_update", { memory_id: id, text: "nothing here" }],
      ["memory_delete", { memory_id: id }],
    ] as const) {
      const result = await callTool(bob.client, tool, args);
      expect(dataOf(result)).toMatchObject({ error: { code: "MEMORY_NOT_FOUND" } });
    }
    const search = await callTool(bob.client, "memory_search", { query: "spare key flowerpot", limit: 50 });
    expect(JSON.stringify(dataOf(search))).not.toContain("flowerpot");
    const list = await callTool(bob.client, "memory_list", { filters: { user_id: "alice" } });
    expect(dataOf(list)).toMatchObject({ total: 0 });
    const forget = await callTool(bob.client, "memory_delete", {
      query: "spare key under the blue flowerpot",
    });
    expect(JSON.stringify(dataOf(forget))).not.toContain("flowerpot");

    const still = await callTool(alice.client, "memory_get", { memory_id: id });
    expect(textOf(still)).toContain("Alice keeps her spare key under the blue flowerpot");
    const bobs = await callTool(bob.client, "memory_list");
    expect(textOf(bobs)).toMatch(/^1 memory for user_id=bob/);
  });

  it("says a scope is needed when there is no default", async () => {
    const session = await connectStdio({ home, env: { LUCID_DREAM: "off" } });
    try {
      const result = await callTool(session.client, "memory_search", { query: "anything" });
      expect(dataOf(result)).toMatchObject({ error: { code: "SCOPE_REQUIRED" } });
    } finally {
      await session.close();
    }
  });
});
