/** `dream` in the run ledger: what kind of run a dream's apply records. */
export const DREAM_RUN_KIND = "dream";
