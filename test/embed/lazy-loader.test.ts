import { describe, expect, it } from "vitest";
import { createLazyLoader } from "../../src/embed/local/lazy-loader.js";

describe("createLazyLoader", () => {
  it("does not load until asked, then shares one load between concurrent callers", async () => {
    let loads = 0;
    const loader = createLazyLoader(async () => ++loads);
    expect(loads).toBe(0);

    const results = await Promise.all([loader.get(), loader.get(), loader.get()]);

    expect(results).toEqual([1, 1, 1]);
    expect(await loader.get()).toBe(1);
    expect(loads).toBe(1);
  });

  it("retries after a failed load instead of caching the failure", async () => {
    let attempts = 0;
    const loader = createLazyLoader(async () => {
      attempts++;
      if (attempts === 1) throw new Error("disk hiccup");
      return "model";
    });

    await expect(loader.get()).rejects.toThrow("disk hiccup");
    await expect(loader.get()).resolves.toBe("model");
    expect(attempts).toBe(2);
  });

  it("treats a synchronous throw in load as a failed load", async () => {
    const loader = createLazyLoader<number>(() => {
      throw new Error("sync");
    });

    await expect(loader.get()).rejects.toThrow("sync");
  });
});
