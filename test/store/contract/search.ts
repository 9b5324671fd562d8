import { expect } from "vitest";
import { parseFilters } from "../../../src/filters/parse-filters.js";
import { type ContractPart, newMemory, vector } from "./harness.js";

const filter = (input: Record<string, unknown>) => parseFilters(input);

/** The search sub-port. */
export const searchPart: ContractPart = {
  name: "search",
  cases(it, store) {
    it("ranks dense hits by cosine similarity within the scope", async () => {
      const near = newMemory({ text: "near", embedding: vector(1, 0.1, 0, 0) });
      const far = newMemory({ text: "far", embedding: vector(0, 1, 0, 0) });
      const other = newMemory({ text: "other user", user_id: "bob", embedding: vector(1, 0, 0, 0) });
      for (const memory of [far, near, other]) await store().insertMemory(memory);
      const hits = await store().searchDense({
        filter: filter({ user_id: "alice" }),
        vector: vector(1, 0, 0, 0),
        k: 5,
      });
      expect(hits.map((hit) => hit.id)).toEqual([near.id, far.id]);
      expect(hits[0]?.similarity).toBeCloseTo(0.995, 2);
      expect(hits[1]?.similarity).toBeCloseTo(0, 5);
      const top1 = await store().searchDense({
        filter: filter({ user_id: "alice" }),
        vector: vector(1, 0, 0, 0),
        k: 1,
      });
      expect(top1.map((hit) => hit.id)).toEqual([near.id]);
    });
    it("applies metadata filters and non-user scopes to dense search", async () => {
      const tagged = newMemory({
        text: "tagged",
        metadata: { topic: "food" },
        embedding: vector(0, 1, 0, 0),
      });
      const untagged = newMemory({ text: "untagged", embedding: vector(1, 0, 0, 0) });
      const agents = newMemory({
        text: "agent",
        user_id: null,
        agent_id: "coder",
        embedding: vector(1, 0, 0, 0),
      });
      for (const memory of [tagged, untagged, agents]) await store().insertMemory(memory);
      const byTopic = await store().searchDense({
        filter: filter({ user_id: "alice", topic: "food" }),
        vector: vector(1, 0, 0, 0),
        k: 5,
      });
      expect(byTopic.map((hit) => hit.id)).toEqual([tagged.id]);
      const byAgent = await store().searchDense({
        filter: filter({ agent_id: "coder" }),
        vector: vector(1, 0, 0, 0),
        k: 5,
      });
      expect(byAgent.map((hit) => hit.id)).toEqual([agents.id]);
    });
    it("finds keyword hits with stemming, best BM25 first, within the filter", async () => {
      const both = newMemory({ text: "Caroline went hiking and camping in the mountains" });
      const one = newMemory({ text: "Melanie likes camping trips" });
      const none = newMemory({ text: "Quarterly revenue grew" });
      const bobs = newMemory({ text: "Bob hikes every weekend", user_id: "bob" });
      for (const memory of [both, one, none, bobs]) await store().insertMemory(memory);
      const hits = await store().searchKeyword({
        filter: filter({ user_id: "alice" }),
        terms: ["hike", "camping"],
        k: 10,
      });
      expect(hits.map((hit) => hit.id)).toEqual([both.id, one.id]);
      expect(hits[0]?.bm25).toBeGreaterThan(hits[1]?.bm25 ?? Number.POSITIVE_INFINITY);
      expect(await store().searchKeyword({ filter: filter({ user_id: "alice" }), terms: [], k: 10 })).toEqual(
        [],
      );
      const quoted = await store().searchKeyword({
        filter: filter({ user_id: "alice" }),
        terms: ['say "hi" OR'],
        k: 10,
      });
      expect(quoted).toEqual([]);
    });
    it("finds memories linked to an entity, with how many memories share it", async () => {
      const entity = { key: "boston", name: "Boston", type: "name" };
      const a = newMemory({ text: "Trip to Boston", entities: [entity] });
      const b = newMemory({
        text: "Boston marathon",
        entities: [entity, { key: "marathon", name: "Marathon", type: "name" }],
      });
      const bob = newMemory({ text: "Bob in Boston", user_id: "bob", entities: [entity] });
      for (const memory of [a, b, bob]) await store().insertMemory(memory);
      const hits = await store().searchEntities({
        filter: filter({ user_id: "alice" }),
        keys: ["boston"],
        limit: 10,
      });
      expect(hits.map((hit) => hit.id).sort()).toEqual([a.id, b.id].sort());
      expect(hits.every((hit) => hit.linkCount === 2 && hit.key === "boston")).toBe(true);
    });
    it("indexes each memory's window (its text and its neighbours') and keeps it in step with writes", async () => {
      const turns = [
        "What motivated you to pursue counseling?",
        "My own journey and the support I got",
        "That sounds wonderful",
        "Thanks, I start in June",
      ].map((text, position) =>
        newMemory({
          text,
          thread: "call:t1",
          threadPosition: position,
          actorId: position % 2 ? "Caroline" : "Mel",
        }),
      );
      const loner = newMemory({ text: "Counseling appointment on Friday" });
      for (const memory of [...turns, loner]) await store().insertMemory(memory);
      expect(await store().getMemory(turns[1]?.id ?? "")).toMatchObject({
        thread: "call:t1",
        threadPosition: 1,
        actorId: "Caroline",
      });
      expect(await store().nextThreadPosition("call:t1", { user_id: "alice" })).toBe(4);
      expect(await store().nextThreadPosition("call:none", { user_id: "alice" })).toBe(0);
      const context = (terms: string[]) =>
        store()
          .searchKeyword({ filter: filter({ user_id: "alice" }), terms, k: 10 })
          .then((hits) => hits.map((hit) => hit.id).sort());
      // The question's words reach the answer after it, not the turn two away; the loner has only its own.
      expect(await context(["motivated"])).toEqual([turns[0]?.id, turns[1]?.id].sort());
      expect(await context(["counseling"])).toEqual([turns[0]?.id, turns[1]?.id, loner.id].sort());
      expect(await context(["journey"])).toEqual([turns[0]?.id, turns[1]?.id, turns[2]?.id].sort());
      await store().deleteMemory(turns[1]?.id ?? "");
      expect(await context(["motivated"])).toEqual([turns[0]?.id, turns[2]?.id].sort());
      expect(await context(["journey"])).toEqual([]);
      await store().updateMemory(turns[3]?.id ?? "", {
        text: "Thanks, I start in September",
        hash: "h",
        category: null,
        metadata: {},
        updatedAt: "2026-01-02T00:00:00.000Z",
        expiresAt: null,
      });
      expect(await context(["september"])).toEqual([turns[2]?.id, turns[3]?.id].sort());
      expect(await context(["june"])).toEqual([]);
      const speakers = await store().speakersNamed({
        filter: filter({ user_id: "alice" }),
        names: ["CAROLINE", "mel", "Bob"],
      });
      expect(speakers.sort()).toEqual(["caroline", "mel"]);
      // Every generator's hits say which thread their memory is in.
      const alice = filter({ user_id: "alice" });
      const keyword = await store().searchKeyword({
        filter: alice,
        terms: ["september", "appointment"],
        k: 10,
      });
      expect(new Map(keyword.map((hit) => [hit.id, hit.thread]))).toEqual(
        new Map([
          [turns[2]?.id, "call:t1"],
          [turns[3]?.id, "call:t1"],
          [loner.id, null],
        ]),
      );
      const dense = await store().searchDense({ filter: alice, vector: vector(1, 0, 0, 0), k: 10 });
      expect(dense.find((hit) => hit.id === loner.id)?.thread).toBeNull();
      expect(dense.find((hit) => hit.id === turns[0]?.id)?.thread).toBe("call:t1");
      expect(await store().speakersNamed({ filter: filter({ user_id: "bob" }), names: ["Mel"] })).toEqual([]);
    });
    it("keeps a thread's scopes apart: a window holds only neighbours of its own scope", async () => {
      // One thread name, three scopes (two of them alice's, told apart by agent): as if another
      // user's memory had been imported into the middle of alice's conversation.
      const thread = "call:shared";
      const ask = newMemory({ text: "Where should we meet tomorrow?", thread, threadPosition: 0 });
      const planted = newMemory({
        text: "Bob keeps marmalade in the cellar",
        user_id: "bob",
        thread,
        threadPosition: 1,
      });
      const coder = newMemory({
        text: "The zeppelin build is green",
        agent_id: "coder",
        thread,
        threadPosition: 2,
      });
      const answer = newMemory({ text: "At the usual cafe", thread, threadPosition: 3 });
      // Inserted in thread order, so each insert must refresh the neighbour of its own scope.
      for (const memory of [ask, planted, coder, answer]) await store().insertMemory(memory);
      const found = (user: string, terms: string[]) =>
        store()
          .searchKeyword({ filter: filter({ user_id: user }), terms, k: 10 })
          .then((hits) => hits.map((hit) => hit.id).sort());
      expect(await found("alice", ["marmalade"])).toEqual([]);
      expect(await found("bob", ["meet", "zeppelin", "cafe"])).toEqual([]);
      expect(await found("alice", ["zeppelin"])).toEqual([coder.id]);
      expect(await found("alice", ["cafe"])).toEqual([ask.id, answer.id].sort());
      expect(await found("alice", ["meet"])).toEqual([ask.id, answer.id].sort());
      expect(await store().nextThreadPosition(thread, { user_id: "alice" })).toBe(4);
      expect(await store().nextThreadPosition(thread, { user_id: "alice", agent_id: "coder" })).toBe(3);
      expect(await store().nextThreadPosition(thread, { user_id: "bob" })).toBe(2);
      await store().updateMemory(answer.id, {
        text: "At the old library",
        hash: "h",
        category: null,
        metadata: {},
        updatedAt: "2026-01-02T00:00:00.000Z",
        expiresAt: null,
      });
      expect(await found("alice", ["library"])).toEqual([ask.id, answer.id].sort());
      expect(await found("alice", ["cafe"])).toEqual([]);
      await store().deleteMemory(answer.id);
      expect(await found("alice", ["library"])).toEqual([]);
      expect(await found("alice", ["meet"])).toEqual([ask.id]);
      await store().deleteMemory(planted.id);
      expect(await found("alice", ["meet", "zeppelin"])).toEqual([ask.id, coder.id].sort());
    });
    it("cuts entity hits rarest entity first, then newest first, and counts links over the whole filter", async () => {
      const common = { key: "caroline", name: "Caroline", type: "name" };
      const rare = { key: "sweden", name: "Sweden", type: "name" };
      const memories = Array.from({ length: 6 }, (_, index) =>
        newMemory({ text: `Caroline note ${index}`, entities: index === 2 ? [common, rare] : [common] }),
      );
      for (const memory of memories) await store().insertMemory(memory);
      const query = { filter: filter({ user_id: "alice" }), keys: ["caroline", "sweden"] };
      const cut = await store().searchEntities({ ...query, limit: 3 });
      expect(cut.map((hit) => [hit.id, hit.key, hit.linkCount])).toEqual([
        [memories[2]?.id, "sweden", 1],
        [memories[5]?.id, "caroline", 6],
        [memories[4]?.id, "caroline", 6],
      ]);
      const asked = await store().searchEntities({ ...query, limit: 10, ids: [memories[0]?.id ?? ""] });
      expect(asked).toEqual([{ id: memories[0]?.id, key: "caroline", linkCount: 6, thread: null }]);
      expect(await store().searchEntities({ ...query, limit: 10, ids: [] })).toEqual([]);
    });
  },
};
