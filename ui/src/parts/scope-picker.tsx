/**
 * The header's scope: a pick from the users, agents, apps and runs the store knows (`GET
 * /v1/entities/`), or the four fields typed in. A key bound to a scope fixes it: then it is only
 * shown.
 *
 * @module
 */

import { useEffect, useState } from "preact/hooks";
import { api } from "../api.js";
import { useApp } from "../app-context.js";
import { formatScope } from "../format-scope.js";
import { useLoad } from "../tasks.js";
import { type Entity, SCOPE_KEYS, type Scope } from "../wire.js";

const entityValue = (entity: Entity) => `${entity.type}_id=${entity.name}`;

export function ScopePicker(props: { onScope(scope: Scope): void }) {
  const app = useApp();
  const entities = useLoad(
    () => api<{ results: Entity[] }>("/v1/entities/", { query: { page_size: 200 } }),
    [app.revision],
  );
  const [draft, setDraft] = useState<Scope>(app.scope);
  useEffect(() => setDraft(app.scope), [app.scope]);

  const bound = app.info?.bound;
  if (bound !== null && bound !== undefined) {
    return (
      <p class="scope-fixed">
        Scope: <strong>{formatScope(bound)}</strong> (fixed by your API key)
      </p>
    );
  }
  const picked = SCOPE_KEYS.filter((key) => app.scope[key] !== undefined);
  const current =
    picked.length === 1 && picked[0] !== undefined ? `${picked[0]}=${app.scope[picked[0]]}` : "";
  return (
    <form
      class="scope-picker"
      aria-label="Scope"
      onSubmit={(event) => {
        event.preventDefault();
        const scope: Scope = {};
        for (const key of SCOPE_KEYS) {
          const value = draft[key]?.trim();
          if (value) scope[key] = value;
        }
        props.onScope(scope);
      }}
    >
      <div class="field">
        <label for="scope-known">Known scopes</label>
        <select
          id="scope-known"
          value={current}
          onChange={(event) => {
            const [key, name] = event.currentTarget.value.split(/=(.*)/s);
            if (key !== undefined && name !== undefined) props.onScope({ [key]: name });
          }}
        >
          <option value="">{entities.busy ? "Loading…" : "Choose…"}</option>
          {(entities.data?.results ?? []).map((entity) => (
            <option key={entityValue(entity)} value={entityValue(entity)}>
              {entity.type} {entity.name} ({entity.total_memories})
            </option>
          ))}
        </select>
      </div>
      {SCOPE_KEYS.map((key) => (
        <div class="field" key={key}>
          <label for={`scope-${key}`}>{key}</label>
          <input
            id={`scope-${key}`}
            value={draft[key] ?? ""}
            size={10}
            spellcheck={false}
            onInput={(event) => setDraft({ ...draft, [key]: event.currentTarget.value })}
          />
        </div>
      ))}
      <button type="submit">Use scope</button>
    </form>
  );
}
