/**
 * The API key prompt, shown once a call answered 401: the key goes to sessionStorage (this tab
 * only) and every view loads again with it.
 *
 * @module
 */

import { useEffect, useRef, useState } from "preact/hooks";

export function KeyForm(props: { readonly hasKey: boolean; onKey(key: string | null): void }) {
  const [draft, setDraft] = useState("");
  const field = useRef<HTMLInputElement>(null);
  // The page can do nothing else until a key is given: the cursor goes where it is typed.
  useEffect(() => field.current?.focus(), []);
  return (
    <form
      class="key-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (draft.trim() !== "") props.onKey(draft.trim());
        setDraft("");
      }}
    >
      <p id="key-help">
        {props.hasKey
          ? "The server refused the API key: give another one."
          : "This server needs an API key (lucid keys create)."}
      </p>
      <label for="api-key">API key</label>
      <input
        id="api-key"
        ref={field}
        type="password"
        autocomplete="off"
        spellcheck={false}
        aria-describedby="key-help"
        value={draft}
        onInput={(event) => setDraft(event.currentTarget.value)}
      />
      <button type="submit">Use key</button>
      {props.hasKey && (
        <button type="button" onClick={() => props.onKey(null)}>
          Forget key
        </button>
      )}
    </form>
  );
}
