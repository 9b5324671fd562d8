/**
 * What every route of the REST API shares: the one Memory and event registry of the server, the
 * default scope, and the caller the auth step found (its key's scope binds every read and write).
 *
 * @module
 */

import type { HttpBindings } from "@hono/node-server";
import type { ScopeOptions } from "../core/scope.js";
import type { EventRegistry } from "../edge/events.js";
import type { Memory } from "../sdk/memory.js";
import type { Workspace } from "../sdk/workspace.js";
import type { PlanStore } from "./plan-store.js";

/** Who is calling: the key (when keys are set) and the scope it is bound to. */
export interface Caller {
  readonly keyId?: string;
  /** Every request with this key acts inside this scope. */
  readonly bound?: ScopeOptions;
}

export interface RestDeps {
  readonly memory: Memory;
  readonly events: EventRegistry;
  /** The scope of a request that names none (`LUCID_USER_ID`, the config's `defaults`). */
  readonly defaults: ScopeOptions;
  readonly maxBodyBytes: number;
  /** The ids `GET /v1/ping/` hands out and the project routes answer to. */
  readonly orgId: string;
  readonly projectId: string;
  /**
   * The project's settings (`custom_instructions`, `custom_categories`) of each key (`""` without
   * keys), kept for the server's life: one key holder's settings are not another's.
   */
  readonly projectSettings: Map<string, Record<string, unknown>>;
  /** The dream plans made and not yet applied. */
  readonly plans: PlanStore;
  /** The Markdown workspace sleep acts on (`lucid serve --workspace`); the sleep routes need it. */
  readonly workspace?: Workspace;
  /** What may leave the server of stored content: every detected credential masked. */
  shown<T>(value: T): Promise<T>;
}

export type RestEnv = { Bindings: HttpBindings; Variables: { caller: Caller } };
