/**
 * The server's event registry stays bounded (issue 33, hole 5): finished events are capped per
 * scope and in all, oldest first, queued and running ones are never dropped, and an add's event
 * keeps ids and counts, never the text it stored — through the registry and through the REST add.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventRegistry, KEEP_FINISHED_PER_SCOPE, KEEP_FINISHED_TOTAL } from "../../src/edge/events.js";
import { type RunningRestServer, startRestServer } from "../../src/http/server.js";
import { type Memory, openMemory } from "../../src/index.js";
import { wordEmbedder } from "../helpers/word-embedder.js";

type Body = Record<string, unknown>;

/** A finished event of its own scope key (`run_id=<n>`), as a client naming a new run each time makes. */
function trackOn(events: EventRegistry, key: string) {
  return events.track({
    type: "add",
    trigger: "tool",
    scope: { run_id: key },
    scopeKey: `run_id=${key}`,
    job: async () => ({ results: [] }),
    summarize: () => "add: 0 memories",
  });
}

describe("EventRegistry bounds", () => {
  it("keeps at most KEEP_FINISHED_TOTAL finished events over distinct scopes, forgetting the oldest", async () => {
    const events = new EventRegistry();
    const ids: string[] = [];
    for (let n = 0; n < KEEP_FINISHED_TOTAL + 50; n++) ids.push((await trackOn(events, `r${n}`)).event.id);
    expect(events.list()).toHaveLength(KEEP_FINISHED_TOTAL);
    for (const id of ids.slice(0, 50)) expect(events.get(id)).toBeUndefined();
    expect(events.get(ids[50] as string)).toBeDefined();
    expect(events.list()[0]?.id).toBe(ids.at(-1));
  });

  it("keeps at most KEEP_FINISHED_PER_SCOPE of one scope, without pushing another scope's out", async () => {
    const events = new EventRegistry();
    const other = (await trackOn(events, "quiet")).event.id;
    const busy: string[] = [];
    for (let n = 0; n < KEEP_FINISHED_PER_SCOPE + 10; n++)
      busy.push((await trackOn(events, "busy")).event.id);
    expect(events.list().filter((event) => event.scopeKey === "run_id=busy")).toHaveLength(
      KEEP_FINISHED_PER_SCOPE,
    );
    for (const id of busy.slice(0, 10)) expect(events.get(id)).toBeUndefined();
    expect(events.get(other)).toBeDefined();
  });

  it("never drops a queued or running event", async () => {
    const events = new EventRegistry();
    let release: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const dream = (user: string) =>
      events.start({
        type: "dream",
        trigger: "auto",
        scope: { user_id: user },
        scopeKey: `user_id=${user}`,
        job: async () => {
          await blocked;
          return { ran: true };
        },
        summarize: () => "dream",
      });
    const running = dream("alice");
    await new Promise((resolve) => setImmediate(resolve));
    // Started on a later tick, which the synchronous adds below never give it.
    const queued = dream("bob");
    for (let n = 0; n < KEEP_FINISHED_TOTAL + 10; n++) await trackOn(events, `r${n}`);
    expect(events.get(running.id)?.status).toBe("running");
    expect(events.get(queued.id)?.status).toBe("queued");
    expect(events.list()).toHaveLength(KEEP_FINISHED_TOTAL + 2);
    release();
    await events.idle();
    // Finished now, and the newest to finish: the oldest others go instead.
    expect(events.get(running.id)?.status).toBe("succeeded");
    expect(events.get(queued.id)?.status).toBe("succeeded");
    expect(events.list()).toHaveLength(KEEP_FINISHED_TOTAL);
  });

  it("keeps what `keep` makes of a result, and hands the caller the whole result", async () => {
    const events = new EventRegistry();
    const { event, result } = await events.track({
      type: "add",
      trigger: "tool",
      scope: { user_id: "alice" },
      scopeKey: "user_id=alice",
      job: async () => ({ id: "m1", text: "the whole text" }),
      summarize: () => "add: 1 memory",
      keep: (done) => ({ id: done.id }),
    });
    expect(result).toEqual({ id: "m1", text: "the whole text" });
    expect(event.result).toEqual({ id: "m1" });
    expect(events.get(event.id)?.result).toEqual({ id: "m1" });
  });
});

describe("the REST add's events", () => {
  const SENTENCE = "Alice keeps a bonsai juniper named Kenji on the windowsill";
  let home: string;
  let memory: Memory;
  let events: EventRegistry;
  let server: RunningRestServer;
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      ...(body === undefined
        ? {}
        : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
    });
    return (await response.json()) as unknown;
  };

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "lucid-events-"));
    memory = await openMemory({ path: join(home, "lucid.db"), embedder: wordEmbedder() });
    events = new EventRegistry();
    server = await startRestServer({ memory, events, home, port: 0, rateLimit: null });
  });
  afterAll(async () => {
    await server.close();
    await memory.close();
    rmSync(home, { recursive: true, force: true });
  });

  it("keep no text: ids, events and the count, with the text read from the store when shown", async () => {
    const [added] = (await call("/v1/memories/", {
      messages: [{ role: "user", content: SENTENCE }],
      user_id: "alice",
      infer: false,
    })) as Body[];
    // The reply has the text; the event behind it does not.
    expect(added).toMatchObject({ memory: SENTENCE, event: "ADD", status: "SUCCEEDED" });
    const eventId = added?.event_id as string;
    const kept = events.get(eventId);
    expect(kept?.result).toEqual({ count: 1, results: [{ id: added?.id, event: "ADD" }] });
    const stored = JSON.stringify(kept);
    for (const word of SENTENCE.split(" ").filter((word) => word.length > 3)) {
      expect(stored).not.toContain(word);
    }

    const shown = (await call(`/v1/event/${eventId}/`)) as Body;
    expect(shown).toMatchObject({
      id: eventId,
      event_type: "ADD",
      status: "SUCCEEDED",
      results: [{ id: added?.id, event: "ADD", memory: SENTENCE, data: { memory: SENTENCE } }],
    });
    // The memory as it is now: a deleted one shows no text (there is none left to show).
    await memory.delete(added?.id as string);
    const listed = (await call("/v1/events/")) as { results: Body[] };
    expect(listed.results.find((event) => event.id === eventId)).toMatchObject({
      results: [{ id: added?.id, event: "ADD", memory: null, data: { memory: null } }],
    });
  });

  it("stays at the cap when a client names a new run_id with every add", async () => {
    const first = (await trackOn(events, "first")).event.id;
    for (let n = 0; n < KEEP_FINISHED_TOTAL; n++) await trackOn(events, `flood-${n}`);
    expect(events.list()).toHaveLength(KEEP_FINISHED_TOTAL);
    const oldest = events.list().at(-1)?.id as string;

    const [added] = (await call("/v1/memories/", {
      messages: [{ role: "user", content: "Alice waters Kenji on Sundays" }],
      user_id: "alice",
      run_id: "yet-another-run",
      infer: false,
    })) as Body[];
    expect(events.list()).toHaveLength(KEEP_FINISHED_TOTAL);
    expect(events.get(first)).toBeUndefined();
    expect(events.get(oldest)).toBeUndefined();
    expect(events.list()[0]).toMatchObject({
      id: added?.event_id,
      scopeKey: expect.stringContaining("run_id=yet-another-run"),
    });
  });
});
