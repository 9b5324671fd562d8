import type Database from "better-sqlite3";

/**
 * Prepared statements by SQL text. Filters compile to a handful of shapes with bound parameters,
 * so a small least-recently-used cache covers the hot paths without growing without bound.
 */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly capacity = 256,
  ) {}

  get(sql: string): Database.Statement {
    const cached = this.statements.get(sql);
    if (cached !== undefined) {
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.db.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > this.capacity) {
      const oldest = this.statements.keys().next().value;
      if (oldest !== undefined) this.statements.delete(oldest);
    }
    return statement;
  }

  clear(): void {
    this.statements.clear();
  }
}
