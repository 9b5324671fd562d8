import Database from "better-sqlite3";

/** Every row of every table of a SQLite store but its vectors, as text: where a secret must never be. */
export function everythingStored(path: string): string {
  const db = new Database(path, { readonly: true });
  const tables = db
    .prepare("select name from sqlite_master where type = 'table' and name not like 'memories_vec%'")
    .all() as { name: string }[];
  const dump = tables
    .map(({ name }) => JSON.stringify(db.prepare(`select * from "${name}"`).all()))
    .join("\n");
  db.close();
  return dump;
}
