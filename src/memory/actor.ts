/** Who made a change, as history records it: SDK calls, and imports. */
export const SDK_ACTOR = "user";
export const IMPORT_ACTOR = "import";
