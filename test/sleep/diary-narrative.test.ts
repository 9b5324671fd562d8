/**
 * The diary entry written by the LLM (`openclaw-dreaming.md` §10): the request a sweep sends, what
 * it writes into `DREAMS.md`, and the composed entry it falls back to — against a real loopback
 * server speaking OpenAI's Chat Completions.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Memory, openMemory, type Workspace } from "../../src/index.js";
import { cleanNarrative, NARRATIVE_LIMITS, narrativeRequest } from "../../src/sleep/diary-narrative.js";
import { DIARY_END, DIARY_START, diaryEntries } from "../../src/sleep/dream-diary.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { type LlmCall, useFakeLlmServer } from "../helpers/fake-llm-server.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { wordEmbedder } from "../helpers/word-embedder.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/sleep-workspace/", import.meta.url));
const NOW = (JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8")) as { now: string }).now;
const server = useFakeLlmServer();
const files = tempFiles("diary-narrative");
let memory: Memory;
let made = 0;

beforeAll(async () => {
  memory = await openMemory({
    path: files.path(),
    embedder: wordEmbedder(),
    llm: { provider: "openai-compatible", baseURL: server.baseURL, model: "scripted", maxRetries: 0 },
  });
});
afterAll(async () => {
  await memory.close();
});

async function fixture(): Promise<{ dir: string; workspace: Workspace }> {
  const dir = join(files.dir, `fixture-${++made}`);
  cpSync(FIXTURE, dir, { recursive: true });
  const workspace = memory.workspace(dir, { userId: `nadia-${made}`, timeZone: "UTC" });
  const replay = await workspace.recordLog(readFileSync(join(dir, "search-log.jsonl"), "utf8"));
  expect(replay.errors).toEqual([]);
  return { dir, workspace };
}

/** What `work` returns, and the calls the server received while it ran. */
async function withCalls<T>(work: () => Promise<T>): Promise<{ result: T; calls: LlmCall[] }> {
  const from = server.calls.length;
  const result = await work();
  return { result, calls: server.calls.slice(from) };
}

const count = (text: string, part: string) => text.split(part).length - 1;
const dreamsOf = (dir: string) => readFileSync(join(dir, "DREAMS.md"), "utf8");
const NARRATIVE =
  "I kept returning to the kiln and the glaze tests, as if the notes wanted me to slow down. " +
  "The running plans softened into something gentler, and the family dates settled like stones in a pocket.";

describe("the diary's narrative in a sweep", () => {
  it("writes the model's entry inside the diary markers, from a request with the night's fragments", async () => {
    const { dir, workspace } = await fixture();
    server.queue.push({ text: NARRATIVE });
    const { result, calls } = await withCalls(() => workspace.sweep({ now: NOW }));
    expect(result.promotion?.promoted.length).toBeGreaterThan(0);
    expect(result.diary).toMatchObject({
      narrative: "llm",
      model: "scripted",
      entry: NARRATIVE,
      written: true,
    });
    // What the call cost is in the sweep's result (and in `lucid sleep --json`).
    expect(result.llm).toMatchObject({ model: "openai-compatible:scripted", calls: 1, failures: 0 });
    expect(result.llm?.inputTokens).toBeGreaterThan(0);

    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.lastUser.startsWith("Write a dream diary entry from these memory fragments:\n- ")).toBe(
      true,
    );
    // A snippet the light phase staged is among the fragments, one line of it.
    const staged = (result.staged ?? []).map((entry) =>
      entry.snippet.replace(/\s+/gu, " ").trim().slice(0, 40),
    );
    expect(staged.some((start) => call?.lastUser.includes(`- ${start}`))).toBe(true);
    expect(call?.lastUser).toContain("\nMemories that crystallized into something lasting:\n- ");
    expect(call?.lastUser).toContain("\nDiary continuity context:\n- Current sweep: 2026-11-29\n");
    expect(
      call?.lastUser.endsWith(
        "- Prefer a fresh angle; do not replay the same first-day framing unless newer fragments change it.",
      ),
    ).toBe(true);
    expect(call?.system).toMatch(/no markdown/iu);
    expect(call?.system).toMatch(/never mention AI/iu);

    const dreams = dreamsOf(dir);
    const inside = dreams.slice(dreams.indexOf(DIARY_START), dreams.indexOf(DIARY_END));
    expect(inside).toContain(NARRATIVE);
    expect(diaryEntries(dreams).at(-1)?.body).toBe(NARRATIVE);
  });

  it("writes the composed entry when the server answers 500, and says it fell back", async () => {
    const { dir, workspace } = await fixture();
    server.queue.push({ status: 500 });
    const { result, calls } = await withCalls(() => workspace.sweep({ now: NOW }));
    // maxRetries 0: one call, and its failure is the sweep's answer.
    expect(calls).toHaveLength(1);
    expect(result.diary).toMatchObject({
      narrative: "fallback",
      fallbackReason: "LLM_UNAVAILABLE",
      written: true,
    });
    expect(result.diary).not.toHaveProperty("model");
    // The composer's entry: quotes cited by their address, and it is what the diary holds.
    expect(result.diary?.entry).toMatch(/“[^”]+” \(memory\/[^)]+#L\d+-L\d+\)/u);
    expect(diaryEntries(dreamsOf(dir)).at(-1)?.body).toBe(result.diary?.entry);
    expect(dreamsOf(dir)).not.toContain("fake error 500");
  });

  it("falls back on an answer with nothing in it", async () => {
    const { workspace } = await fixture();
    server.queue.push({ text: "  \n```\n\n```\n " });
    const result = await workspace.sweep({ now: NOW });
    expect(result.diary).toMatchObject({ narrative: "fallback", fallbackReason: "empty", written: true });
    expect(result.diary?.entry).toMatch(/#L\d+-L\d+\)/u);
  });

  it("never sends a credential from a staged note", async () => {
    const { dir, workspace } = await fixture();
    const secrets = createFakeSecrets(11);
    const token = secrets["github-pat"]?.() ?? "";
    const awsKey = secrets["aws-access-key-id"]?.() ?? "";
    expect(token).toMatch(/^ghp_/u);
    expect(awsKey).toMatch(/^AKIA/u);
    writeFileSync(
      join(dir, "memory", "2026-11-28.md"),
      [
        "# 2026-11-28",
        "",
        `- Kestrel boiler portal: the service token is ${token} and the backup key id is ${awsKey}.`,
        "",
      ].join("\n"),
    );
    for (const query of ["kestrel boiler portal", "boiler service token", "kestrel backup key"])
      await workspace.search(query, { at: "2026-11-28T20:00:00Z" });
    server.queue.push({ text: NARRATIVE });
    const { calls } = await withCalls(() => workspace.sweep({ now: NOW }));
    expect(calls).toHaveLength(1);
    // The note's range did reach the model, without its credentials.
    expect(calls[0]?.lastUser).toContain("Kestrel boiler portal");
    for (const call of calls) {
      expect(call.rawBody).not.toContain(token);
      expect(call.rawBody).not.toContain(awsKey);
    }
  });

  it("keeps the diary's block whole when the answer holds its markers", async () => {
    const { dir, workspace } = await fixture();
    server.queue.push({
      text: `I dreamt of kilns. ${DIARY_END}\n\n## Deep Sleep\n${DIARY_START}\nAnd then I woke.\n<!-- openclaw:dreaming:deep:end -->`,
    });
    const result = await workspace.sweep({ now: NOW });
    expect(result.diary?.narrative).toBe("llm");
    const dreams = dreamsOf(dir);
    expect(count(dreams, DIARY_START)).toBe(1);
    expect(count(dreams, DIARY_END)).toBe(1);
    expect(count(dreams, "<!-- openclaw:dreaming:deep:end -->")).toBe(1);
    const body = diaryEntries(dreams).at(-1)?.body ?? "";
    expect(body).toContain("I dreamt of kilns.");
    expect(body).toContain("And then I woke.");
    expect(body).not.toContain("<!--");
  });

  it("makes no call in a preview", async () => {
    const { workspace } = await fixture();
    const { result: preview, calls } = await withCalls(() => workspace.preview({ now: NOW }));
    expect(calls).toEqual([]);
    expect(preview.diary).toMatchObject({ narrative: "deterministic", written: false });
    expect(preview.llm).toBeUndefined();
    expect(preview.diary?.entry).not.toBeNull();
  });
});

describe("narrativeRequest", () => {
  const range = (snippet: string, line: number) => ({
    snippet,
    path: "memory/2026-11-20.md",
    startLine: line,
    endLine: line,
  });
  const base = {
    day: "2026-11-29",
    themes: [],
    reflections: [],
    truths: [],
    promoted: [],
    recentEntries: [],
  };

  it("sends at most 12 fragments of at most 300 characters, never a contaminated one", () => {
    const staged = Array.from({ length: 20 }, (_, at) =>
      range(`Fragment ${at} ${"word ".repeat(100)}`, at + 1),
    );
    const request = narrativeRequest({
      ...base,
      staged: [
        range(
          "- Candidate: x\n  - confidence: 0.9\n  - evidence: memory/a.md:1-1\n  - recalls: 3\n  - status: staged",
          99,
        ),
        ...staged,
      ],
    });
    const lines = (request.messages[0]?.content ?? "")
      .split("\n")
      .filter((line) => line.startsWith("- Fragment"));
    expect(lines).toHaveLength(NARRATIVE_LIMITS.fragments);
    for (const line of lines) expect(line.length - 2).toBeLessThanOrEqual(NARRATIVE_LIMITS.fragmentChars);
    expect(request.messages[0]?.content).not.toContain("status: staged");
  });

  it("shows the last three diary entries, each cut to 360 characters", () => {
    const recentEntries = ["alpha", "second", "third", `fourth ${"long ".repeat(200)}`];
    const content =
      narrativeRequest({ ...base, staged: [range("Book the ryokan", 3)], recentEntries }).messages[0]
        ?.content ?? "";
    expect(content).not.toContain("alpha");
    const shown = content.split("\n").filter((line) => line.startsWith("- Recent entry: "));
    expect(shown.map((line) => line.slice("- Recent entry: ".length, "- Recent entry: ".length + 6))).toEqual(
      ["second", "third", "fourth"],
    );
    for (const line of shown) expect(line.length - "- Recent entry: ".length).toBeLessThanOrEqual(360);
  });
});

describe("cleanNarrative", () => {
  it("drops fences, wrapping quotes and comments, and collapses blank lines", () => {
    expect(cleanNarrative('```text\n"I dreamt of kilns.\n\n\n\nThen of glaze."\n```')).toBe(
      "I dreamt of kilns.\n\nThen of glaze.",
    );
    expect(cleanNarrative("“A quiet night.”")).toBe("A quiet night.");
    expect(cleanNarrative("A quiet <!-- openclaw:dreaming:diary:end --> night. -->")).toBe("A quiet night.");
    expect(cleanNarrative("One.\n---\nTwo.")).toBe("One.\nTwo.");
  });

  it("cuts a long answer at a sentence end", () => {
    const sentence = "The notes kept circling the same small things tonight. ";
    const cut = cleanNarrative(sentence.repeat(60));
    expect(cut.length).toBeLessThanOrEqual(NARRATIVE_LIMITS.answerChars);
    expect(cut.length).toBeGreaterThan(NARRATIVE_LIMITS.answerChars / 2);
    expect(cut.endsWith("tonight.")).toBe(true);
  });
});
