/**
 * A reader for one object of the config file that knows its file and dotted path, so every error
 * names both.
 *
 * @module
 */

import { configError } from "../errors.js";
import { type DeferredString, UnsetEnvValue } from "./resolve-env-refs.js";

/** Annotation keys allowed in any object, since JSON has no comments. */
type Json = Record<string, unknown>;

export const ANNOTATION_KEYS = new Set(["$comment", "$schema"]);

/** Reads one object of the file, with the file and the object's path for error messages. */
export class Section {
  constructor(
    readonly file: string,
    readonly path: string,
    readonly value: Json,
  ) {}

  static of(file: string, path: string, value: unknown): Section {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw configError(file, path, `must be an object, got ${describe(value)}.`);
    }
    return new Section(file, path, value as Json);
  }

  key(name: string): string {
    return this.path === "" ? name : `${this.path}.${name}`;
  }

  fail(name: string, message: string): never {
    throw configError(this.file, this.key(name), message);
  }

  allowOnly(names: readonly string[]): void {
    for (const name of Object.keys(this.value)) {
      if (ANNOTATION_KEYS.has(name) || names.includes(name)) continue;
      this.fail(name, `is not a known key. Allowed here: ${names.join(", ")}.`);
    }
  }

  section(name: string): Section | undefined {
    const value = this.value[name];
    return value === undefined ? undefined : Section.of(this.file, this.key(name), value);
  }

  string(name: string): string | undefined {
    const value = this.value[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value.trim() === "") {
      this.fail(name, `must be a non-empty string, got ${describe(value)}.`);
    }
    return value;
  }

  /** A string that may wait for an unset environment variable (`resolve-env-refs.ts`). */
  deferredString(name: string): DeferredString | undefined {
    const value = this.value[name];
    return value instanceof UnsetEnvValue ? value : this.string(name);
  }

  requiredString(name: string, example: string): string {
    return this.string(name) ?? this.fail(name, `is required, e.g. ${example}.`);
  }

  oneOf<T extends string>(name: string, choices: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(choices as readonly string[]).includes(value)) {
      this.fail(
        name,
        `must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}, got ${describe(value)}.`,
      );
    }
    return value as T;
  }

  positiveInteger(name: string): number | undefined {
    const value = this.value[name];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
      this.fail(name, `must be a positive integer, got ${describe(value)}.`);
    }
    return value;
  }
}

/** The object without its undefined fields, so optional keys are absent rather than undefined. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return JSON.stringify(value);
}
