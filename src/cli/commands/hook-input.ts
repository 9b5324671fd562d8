import { LucidError } from "../../errors.js";

/** What `--hook` reads from a host's hook JSON (Claude Code, Codex, Cursor send these names). */
export interface HookInput {
  readonly prompt?: string;
  readonly sessionId?: string;
  readonly transcriptPath?: string;
}

/** Reads a hook's JSON payload (stdin); unknown fields are ignored, wrong types refused. */
export async function readHookInput(text: string): Promise<HookInput> {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "--hook reads the hook's JSON from stdin, and stdin was not JSON.",
    );
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw new LucidError("INVALID_ARGUMENT", "--hook expects a JSON object on stdin (the hook's payload).");
  }
  const record = payload as Record<string, unknown>;
  const field = (name: string): string | undefined => {
    const value = record[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string")
      throw new LucidError("INVALID_ARGUMENT", `The hook's ${name} must be a string.`);
    return value;
  };
  const prompt = field("prompt");
  const sessionId = field("session_id") ?? field("sessionId");
  const transcriptPath = field("transcript_path") ?? field("transcriptPath");
  return {
    ...(prompt === undefined ? {} : { prompt }),
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(transcriptPath === undefined ? {} : { transcriptPath }),
  };
}
