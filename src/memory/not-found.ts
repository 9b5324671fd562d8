import { LucidError } from "../errors.js";

export function memoryNotFound(id: string): LucidError {
  return new LucidError(
    "MEMORY_NOT_FOUND",
    `No memory with id ${id}. List ids with getAll, or search for the memory.`,
    {
      details: { id },
    },
  );
}
