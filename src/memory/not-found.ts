import { LucidError } from "../errors.js";

export function memoryNotFound(id: string): LucidError {
  return new LucidError(
    "MEMORY_NOT_FOUND",
    `No memory has the id ${JSON.stringify(id)}. Find ids with getAll() or search().`,
    {
      details: { id },
    },
  );
}
