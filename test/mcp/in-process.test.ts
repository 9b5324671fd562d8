/**
 * The server in-process, over the SDK's in-memory transport: tool listing, results, tool errors
 * for bad input, and scope isolation. The binary tests (`binary-*.test.ts`) cover the transports.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventRegistry } from "../../src/edge/events.js";
import { type Memory, openMemory } from "../../src/index.js";
import { createMcpServer, type McpServerOptions } from "../../src/mcp/server.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("mcp");

/** Bag-of-letters vectors: texts sharing words are near, enough for search to find its own words. */
const embedder = scriptedEmbedder(26, (text) => {
  const vector = new Array<number>(26).fill(0.01);
  for (const char of text.toLowerCase()) {
    const index = char.charCodeAt(0) - 97;
    if (index >= 0 && index < 26) vector[index] = (vector[index] ?? 0) + 1;
  }
  return vector;
});

async function connect(options: Omit<McpServerOptions, "memory"> & { memory: Memory }): Promise<Client> {
  const server = createMcpServer({ autoDream: { enabled: false }, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

describe("MCP server in-process", () => {
  let memory: Memory;
  let alice: Client;
  let bob: Client;
  let nobody: Client;

  beforeAll(async () => {
    memory = await openMemory({ path: files.path(), embedder });
    const events = new EventRegistry();
    alice = await connect({ memory, events, defaults: { userId: "alice" } });
    bob = await connect({ memory, events, defaults: { userId: "bob" } });
    nobody = await connect({ memory, events });
  });
  afterAll(async () => {
    await Promise.all([alice.close(), bob.close(), nobody.close()]);
    await memory.close();
  });

  it("lists the tools with schemas and descriptions", async () => {
    const { tools } = await alice.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "memory_search",
      "memory_add",
      "memory_get",
      "memory_list",
      "memory_update",
      "memory_delete",
      "memory_history",
      "memory_event_list",
      "memory_event_status",
      "memory_dream",
      "memory_sleep_events",
      "memory_recall",
      "memory_capture",
      "memory_session",
    ]);
    const search = tools.find((tool) => tool.name === "memory_search");
    expect(search?.inputSchema.required).toEqual(["query"]);
    expect(Object.keys(search?.inputSchema.properties ?? {})).toContain("user_id");
    for (const tool of tools) expect(tool.description?.length).toBeGreaterThan(100);
  });

  it("adds, searches, gets, updates and deletes", async () => {
    const added = await call(alice, "memory_add", {
      text: "User prefers pnpm over npm",
      category: "preference",
    });
    expect(added.isError).toBeFalsy();
    expect(text(added)).toMatch(/^Stored 1 fact \[preference\] for user_id=alice:/);
    const id = (added.structuredContent as { results: { id: string }[] }).results[0]?.id as string;

    const found = await call(alice, "memory_search", { query: "pnpm npm" });
    expect(text(found)).toContain(`User prefers pnpm over npm [preference] (score:`);
    expect(text(found)).toContain(`id: ${id}`);

    const got = await call(alice, "memory_get", { memory_id: id });
    expect(text(got)).toMatch(
      /^Memory .+:\nUser prefers pnpm over npm\n\nScope: user_id=alice\nCategory: preference/,
    );

    const updated = await call(alice, "memory_update", {
      memory_id: id,
      text: "User prefers bun over npm",
      pinned: true,
    });
    expect(text(updated)).toBe(`Updated memory ${id}: "User prefers bun over npm"`);
    expect((await memory.get(id))?.metadata.pinned).toBe(true);
    expect((await memory.history(id)).map((row) => row.action)).toEqual(["ADD", "UPDATE"]);

    const deleted = await call(alice, "memory_delete", { memory_id: id });
    expect(text(deleted)).toBe(`Deleted: "User prefers bun over npm" (id: ${id})`);
    expect(await memory.get(id)).toBeNull();
  });

  it("stores several facts at once and pages through them with the total", async () => {
    const facts = Array.from({ length: 7 }, (_, i) => `Fact number ${i + 1} about the project`);
    const added = await call(alice, "memory_add", { facts, user_id: "carol", importance: 0.7 });
    expect(text(added)).toMatch(/^Stored 7 facts/);
    const page = await call(alice, "memory_list", { user_id: "carol", page_size: 3, page: 2 });
    expect(page.structuredContent).toMatchObject({ total: 7, page: 2, pageSize: 3, hasMore: true });
    expect(text(page)).toMatch(/^7 memories for user_id=carol; showing 4–6 \(page 2 of 3\):/);
    expect(text(page)).toContain("More: call memory_list with page 3.");
  });

  it("answers bad arguments with INVALID_ARGUMENT tool errors and keeps serving", async () => {
    const missing = await call(alice, "memory_search", {});
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^INVALID_ARGUMENT: Invalid arguments for memory_search: query:/);
    expect(missing.structuredContent).toMatchObject({ error: { code: "INVALID_ARGUMENT" } });

    const camel = await call(alice, "memory_get", { memoryId: "x" });
    expect(text(camel)).toContain('unknown parameter "memoryId" (did you mean "memory_id"?)');

    const wrongType = await call(alice, "memory_list", { page: "two" });
    expect(wrongType.isError).toBe(true);

    const spaces = await call(alice, "memory_search", { query: "x", user_id: "a b" });
    expect(text(spaces)).toMatch(/^INVALID_ARGUMENT: user_id must be/);

    const category = await call(alice, "memory_add", { text: "x y z", category: " " });
    expect(category.isError).toBe(true);

    const nothing = await call(alice, "memory_delete", {});
    expect(text(nothing)).toMatch(/^INVALID_ARGUMENT: Provide memory_id, query, or all/);

    const bulk = await call(alice, "memory_delete", { all: true });
    expect(text(bulk)).toMatch(/^INVALID_ARGUMENT: Bulk deletion requires confirm: true/);

    await expect(alice.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/not found/);
    expect((await call(alice, "memory_list")).isError).toBeFalsy();
  });

  it("requires a scope when the server has no default", async () => {
    const result = await call(nobody, "memory_list");
    expect(result.structuredContent).toMatchObject({ error: { code: "SCOPE_REQUIRED" } });
    expect((await call(nobody, "memory_list", { user_id: "dave" })).isError).toBeFalsy();
  });

  it("never reads or changes another scope, by id, search or filters", async () => {
    const added = await call(alice, "memory_add", { text: "Alice's locker code is on the fridge" });
    const id = (added.structuredContent as { results: { id: string }[] }).results[0]?.id as string;

    for (const [tool, args] of [
      ["memory_get", { memory_id: id }],
      ["memory_update", { memory_id: id, text: "hijacked" }],
      ["memory_delete", { memory_id: id }],
    ] as const) {
      const result = await call(bob, tool, args);
      expect(result.structuredContent).toMatchObject({ error: { code: "MEMORY_NOT_FOUND" } });
      expect(text(result)).not.toContain("locker");
    }
    const unknown = await call(bob, "memory_get", { memory_id: "no-such-id" });
    expect(text(unknown).replace("no-such-id", id)).toBe(
      text(await call(bob, "memory_get", { memory_id: id })),
    );

    const search = await call(bob, "memory_search", {
      query: "locker code fridge",
      filters: { user_id: "alice" },
    });
    expect(search.structuredContent).toMatchObject({ results: [] });
    const list = await call(bob, "memory_list", {
      filters: { OR: [{ user_id: "alice" }, { user_id: "bob" }] },
    });
    expect(JSON.stringify(list.structuredContent)).not.toContain("locker");
    const forget = await call(bob, "memory_delete", { query: "locker code fridge" });
    expect(text(forget)).toMatch(/^No matching memories found/);
    const wipe = await call(bob, "memory_delete", { all: true, confirm: true });
    expect(text(wipe)).toMatch(/^All memories deleted for user_id=bob: 0 memories\./);
    expect((await memory.get(id))?.memory).toBe("Alice's locker code is on the fridge");

    // A default agent narrows; naming a user moves the whole call to that user.
    const asAlice = await call(bob, "memory_get", { memory_id: id, user_id: "alice" });
    expect(asAlice.isError).toBeFalsy();
  });

  it("deletes by query only on a clear match, otherwise returns candidates", async () => {
    await call(alice, "memory_add", {
      facts: ["Erin likes green tea", "Erin likes green tea with honey"],
      user_id: "erin",
    });
    const vague = await call(alice, "memory_delete", { query: "green tea", user_id: "erin" });
    expect(text(vague)).toMatch(/^No clear match; nothing was deleted\. Found 2 candidates/);
    expect(vague.structuredContent).toMatchObject({ deleted: null });
  });
  it("plans a dream without changing anything (dry run is the default)", async () => {
    await call(alice, "memory_add", {
      facts: [
        "Frank's favourite colour is blue",
        "Frank's favorite color is blue.",
        "Frank has a cat named Miso",
        // First person: the dream's rewrite makes it third person, so applying changes something.
        "I prefer tabs over spaces",
      ],
      user_id: "frank",
    });
    const before = await memory.getAll({ filters: { user_id: "frank" } });
    const result = await call(alice, "memory_dream", { user_id: "frank" });
    expect(result.isError, text(result)).toBeFalsy();
    expect(text(result)).toMatch(/^(## dream — consolidation report|Nothing found to consolidate)/);
    expect(text(result)).not.toContain("Apply? [Y/n]");
    expect(result.structuredContent).toMatchObject({
      dryRun: true,
      scope: { user_id: "frank" },
      plan: { version: 1 },
    });
    const after = await memory.getAll({ filters: { user_id: "frank" } });
    expect(after.results).toEqual(before.results);
  });
  it("lists what waits for review, and auto: true leaves it alone", async () => {
    await call(alice, "memory_add", {
      facts: ["The deploy target of billing-api is Render", "billing-api deploys to AWS"],
      user_id: "rita",
    });
    const before = await memory.getAll({ filters: { user_id: "rita" } });
    const dry = await call(alice, "memory_dream", { user_id: "rita" });
    expect(text(dry)).toContain("Review (1):");
    expect(text(dry)).toContain("— possible conflict:");
    expect(text(dry)).toContain("Conflicts and review items are left for a person");
    const plan = (dry.structuredContent as { plan: { review: { kind: string }[] } }).plan;
    expect(plan.review.map((item) => item.kind)).toEqual(["possible-conflict"]);
    const auto = await call(alice, "memory_dream", { user_id: "rita", auto: true });
    expect(text(auto)).toMatch(/ {2}review=1\n/u);
    expect((await memory.getAll({ filters: { user_id: "rita" } })).results).toEqual(before.results);
  });
  it("applies a dream with auto: true and records it as an event and a run", async () => {
    const result = await call(alice, "memory_dream", { user_id: "frank", auto: true });
    expect(result.isError, text(result)).toBeFalsy();
    expect(text(result)).toMatch(
      /^\[lucid dream --auto\] scope=user_id=frank {2}merged=\d+ {2}pruned=\d+ {2}conflicts_skipped=\d+(?: {2}review=\d+)?\nRun \S+ \(event evt_/,
    );
    const { eventId, runId } = result.structuredContent as { eventId: string; runId: string };

    const listed = await call(alice, "memory_event_list", { user_id: "frank" });
    expect(text(listed)).toMatch(
      new RegExp(`^1 event:\\n- ${eventId} \\| dream \\| succeeded \\| \\d+(ms|\\.\\ds) \\| `),
    );
    const byRun = await call(alice, "memory_event_status", { event_id: runId, user_id: "frank" });
    expect(text(byRun)).toContain(`Event: ${eventId}\nType: dream (tool)\nStatus: succeeded`);

    // A dream that finds nothing more to do records no run, and says so.
    const again = await call(alice, "memory_dream", { user_id: "frank", auto: true });
    expect(text(again)).toMatch(/\nNothing was changed, so no run was recorded \(event evt_/);
    expect(again.structuredContent).toMatchObject({ runId: null });

    // Another scope sees neither the event nor the run.
    const other = await call(bob, "memory_event_status", { event_id: eventId });
    expect(other.structuredContent).toMatchObject({ error: { code: "RUN_NOT_FOUND" } });
    expect(text(await call(bob, "memory_event_list"))).toBe("No events found.");
  });
  it("redacts credentials on add and says which kind", async () => {
    const result = await call(alice, "memory_add", {
      text: "Deploy with token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 before Friday",
      user_id: "gina",
    });
    expect(text(result)).toContain('"Deploy with token [REDACTED:github-pat] before Friday"');
    expect(text(result)).toMatch(/— redacted: github-pat$/);
    expect(JSON.stringify(result)).not.toContain("ghp_a1B2");
  });

  it("applies a dream with dry_run: false, as auto: true does, and refuses the two disagreeing", async () => {
    await call(alice, "memory_add", { facts: ["I keep my bike in the shed"], user_id: "gina" });
    const applied = await call(alice, "memory_dream", { user_id: "gina", dry_run: false });
    expect(applied.isError, text(applied)).toBeFalsy();
    expect(applied.structuredContent).toMatchObject({ dryRun: false });
    // Applied: the first-person rewrite changed the text.
    expect((await memory.getAll({ filters: { user_id: "gina" } })).results[0]?.memory).toMatch(
      /^User keeps /,
    );
    const both = await call(alice, "memory_dream", { user_id: "gina", dry_run: true, auto: true });
    expect(both.isError).toBe(true);
    expect(text(both)).toMatch(/^INVALID_ARGUMENT: dry_run: true and auto: true disagree/);
  });

  it("refuses text and facts together instead of dropping text", async () => {
    const both = await call(alice, "memory_add", {
      text: "Hana runs",
      facts: ["Hana swims"],
      user_id: "hana",
    });
    expect(both.isError).toBe(true);
    expect(text(both)).toMatch(
      /^INVALID_ARGUMENT: Pass `text` \(one fact\) or `facts` \(several\), not both/,
    );
    expect((await memory.getAll({ filters: { user_id: "hana" } })).total).toBe(0);
  });

  it("stores no noise: chatter and tool output are filtered as dream's noise rules would delete them", async () => {
    const chatter = await call(alice, "memory_add", { text: "ok thanks", user_id: "ivan" });
    expect(chatter.isError).toBeFalsy();
    expect(text(chatter)).toMatch(/^All provided facts were filtered as noise\. Nothing stored\./);
    const mixed = await call(alice, "memory_add", {
      facts: ["Ivan's team ships on Thursdays", "got it, thanks!", "=== 12 passed, 0 failed in 3.41s ==="],
      user_id: "ivan",
    });
    expect(text(mixed)).toMatch(/^Stored 1 fact/);
    expect(text(mixed)).toMatch(/not stored \(acknowledgement\): "got it, thanks!"/);
    expect(mixed.structuredContent).toMatchObject({
      filtered: [{ text: "got it, thanks!" }, { text: "=== 12 passed, 0 failed in 3.41s ===" }],
    });
    const stored = await memory.getAll({ filters: { user_id: "ivan" } });
    expect(stored.results.map((item) => item.memory)).toEqual(["Ivan's team ships on Thursdays"]);
    // Tool output dropped as noise is echoed masked: it may hold a token.
    const token = createFakeSecrets(11)["github-pat"]?.() ?? "";
    const leaked = await call(alice, "memory_add", {
      text: `$ curl -H "Authorization: Bearer ${token}" https://api.test/user\n{"login":"ivan","id":7}`,
      user_id: "ivan",
    });
    expect(text(leaked)).toMatch(/^All provided facts were filtered as noise/);
    expect(JSON.stringify(leaked)).not.toContain(token);
  });

  it("checks the scope before filtering noise", async () => {
    const bound = await connect({ memory, defaults: { userId: "lea" }, bound: { userId: "lea" } });
    const other = await call(bound, "memory_add", { text: "ok thanks", user_id: "bob" });
    expect(text(other)).toMatch(/^SCOPE_NOT_ALLOWED/);
    const none = await call(nobody, "memory_add", { text: "ok thanks" });
    expect(text(none)).toMatch(/^SCOPE_REQUIRED/);
  });

  it("shows a memory's history, only within the call's scope", async () => {
    const added = await call(alice, "memory_add", { text: "Jo drinks black coffee", user_id: "jo" });
    const id = (added.structuredContent as { results: { id: string }[] }).results[0]?.id as string;
    await call(alice, "memory_update", { memory_id: id, text: "Jo drinks oat flat whites", user_id: "jo" });
    const history = await call(alice, "memory_history", { memory_id: id, user_id: "jo" });
    expect(history.isError, text(history)).toBeFalsy();
    expect(text(history)).toMatch(/^History of .* \(2 changes, oldest first\):/);
    expect(text(history)).toMatch(/ADD by .*added "Jo drinks black coffee"/);
    expect(text(history)).toMatch(/UPDATE by .*"Jo drinks black coffee" → "Jo drinks oat flat whites"/);
    const elsewhere = await call(alice, "memory_history", { memory_id: id, user_id: "kai" });
    expect(text(elsewhere)).toMatch(/^MEMORY_NOT_FOUND/);
  });

  it("binds a session to its scope: narrower is fine, another user is refused", async () => {
    const bound = await connect({ memory, defaults: { userId: "lea" }, bound: { userId: "lea" } });
    await call(bound, "memory_add", { text: "Lea's desk is on the third floor", agent_id: "office" });
    const narrowed = await call(bound, "memory_list", { agent_id: "office" });
    expect(narrowed.structuredContent).toMatchObject({ total: 1 });
    expect((await call(bound, "memory_list", { user_id: "lea" })).isError).toBeFalsy();
    const other = await call(bound, "memory_search", { query: "desk", user_id: "bob" });
    expect(other.isError).toBe(true);
    expect(text(other)).toMatch(
      /^SCOPE_NOT_ALLOWED: This server serves user_id=lea only; it cannot act on user_id=bob/,
    );
  });
});
