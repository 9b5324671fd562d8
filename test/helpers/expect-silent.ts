/**
 * Runs `work` and checks it wrote nothing to the console, stdout or stderr: a library that loads a
 * model must not print into its host's output.
 */

import { expect, vi } from "vitest";

export async function expectSilent<T>(work: () => Promise<T>): Promise<T> {
  const spies = [
    vi.spyOn(console, "log"),
    vi.spyOn(console, "info"),
    vi.spyOn(console, "warn"),
    vi.spyOn(console, "error"),
    vi.spyOn(process.stdout, "write"),
    vi.spyOn(process.stderr, "write"),
  ];
  let result: T;
  try {
    result = await work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  return result;
}
