/**
 * Work the plugin starts without holding up a turn (counting a session, capturing a turn), and the
 * dreams Lucid started because of it, so that shutdown can wait for both. `opencode run` exits
 * right after its session goes idle: it does not wait for event handlers, but it does await the
 * plugin's `dispose`. Lucid outliving the host is no safe place for a dream either: it is in the
 * host's process group, which a closing terminal or a test harness ends, and its stderr goes to a
 * pipe nobody reads any more. So `dispose` waits for the dreams to finish before closing Lucid.
 *
 * @module
 */

import type { LucidProcess } from "../../shared/lucid-process.js";

/** How long shutdown waits for a dream at most: a dream of a large store takes seconds, not minutes. */
const DREAM_WAIT_MS = 120_000;
const DREAM_POLL_MS = 250;

export class Background {
  readonly #pending = new Set<Promise<unknown>>();
  readonly #dreams = new Set<string>();

  /** Runs `work` in the background; it must handle its own errors. */
  run(work: () => Promise<unknown>): void {
    const running = work().finally(() => this.#pending.delete(running));
    this.#pending.add(running);
  }

  /** A dream Lucid started (its event id), to wait for at shutdown. */
  dreamStarted(eventId: string): void {
    this.#dreams.add(eventId);
  }

  /** Waits for the work started so far, and for work that work started. */
  async settle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Waits until every dream started has finished (or the wait runs out). */
  async dreamsDone(lucid: LucidProcess, log: (message: string) => void): Promise<void> {
    const deadline = Date.now() + DREAM_WAIT_MS;
    for (const eventId of this.#dreams) {
      while (Date.now() < deadline) {
        let status: string | undefined;
        try {
          const { data } = await lucid.call<{ event?: { status?: string } }>("memory_event_status", {
            event_id: eventId,
          });
          status = data.event?.status;
        } catch (error) {
          log(`lucid: could not check dream ${eventId}: ${String(error)}`);
          break;
        }
        if (status !== "queued" && status !== "running") break;
        await new Promise((resolve) => setTimeout(resolve, DREAM_POLL_MS));
      }
      this.#dreams.delete(eventId);
    }
  }
}
