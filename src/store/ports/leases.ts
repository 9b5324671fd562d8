/**
 * The gate-and-lease sub-port: what the auto-dream gate remembers of a scope (the last run, the
 * interactive sessions since), and leases that keep two workers off one scope across processes.
 *
 * @module
 */

/** The auto-dream gate's memory of a scope. */
export interface DreamGateState {
  readonly lastConsolidatedAt: string | null;
  readonly sessionsSince: number;
  readonly lastSessionId: string | null;
}

export interface LeaseHolder {
  readonly holder: string;
  readonly host: string;
  readonly pid: number;
}

export interface Lease extends LeaseHolder {
  readonly acquiredAt: string;
  readonly expiresAt: string;
}

export type LeaseResult =
  | { readonly acquired: true; readonly lease: Lease }
  | { readonly acquired: false; readonly heldBy: Lease };

export interface LeasesPort {
  dreamGateState(scopeKey: string): Promise<DreamGateState>;
  /** Counts an interactive session for the gate; false when this id was already counted. */
  recordSession(scopeKey: string, sessionId: string, trigger: string, at: string): Promise<boolean>;
  /** A run committed: the time gate restarts and the session count goes back to zero. */
  recordDreamCompletion(scopeKey: string, at: string): Promise<void>;
  /**
   * Takes the key's lease atomically when it is free, expired (at or before `now`), already ours,
   * or still held by `replacing` (a holder known to be gone); otherwise reports who holds it.
   */
  acquireLease(
    key: string,
    holder: LeaseHolder,
    now: string,
    ttlMs: number,
    replacing?: string,
  ): Promise<LeaseResult>;
  /** Releases the lease if `holder` still holds it. */
  releaseLease(key: string, holder: string): Promise<void>;
}
