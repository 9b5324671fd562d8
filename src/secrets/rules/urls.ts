/**
 * Credentials inside URLs: `scheme://user:password@host`. The secret is the password part only;
 * user, host and path stay readable after redaction. Database and broker schemes get their own
 * kinds; every other scheme is `url-password`.
 *
 * @module
 */

import type { Candidate, Confidence, SecretRule } from "../types.js";
import { pattern } from "./shape.js";

// Passwords documentation and local setups use on purpose (`postgres://postgres:postgres@localhost`,
// `user:password@host`): illustrations or defaults, not leaked secrets.
const DOCUMENTATION_PASSWORDS = new Set(
  "password passwd pass pwd secret changeme example placeholder redacted test user username root admin postgres mysql guest".split(
    " ",
  ),
);

// RFC 2606 reserves these names for documentation: `https://abc:xyz@example.com` is an illustration.
const DOCUMENTATION_HOST = /^(?:[\w-]+\.)*example(?:\.(?:com|org|net))?(?:[:/]|$)/i;

function assessUrlPassword({ value, groups }: Candidate): Confidence | null {
  const password = value.toLowerCase();
  if (DOCUMENTATION_PASSWORDS.has(password) || password === groups.user?.toLowerCase()) return null;
  // Three characters or fewer (`a:b@`, `abc:xyz@`) reads as an illustration, and is guessable anyway.
  if (value.length < 4 || DOCUMENTATION_HOST.test(groups.host ?? "")) return null;
  // `host:8080@…` is a port before an `@` in a path, not a password.
  if (/^\d{1,5}$/.test(value)) return null;
  return "high";
}

// Brackets are excluded so Lucid's own `[REDACTED:…]` marker never reads as user info.
const USERINFO = String.raw`(?<user>[^\s:/@?#'"<>\[\]]{0,128}):(?<value>[^\s@/?#'"<>\[\]]{1,256})@(?<host>[A-Za-z0-9\[][^\s/?#'"<>]{0,253})`;

interface UrlRuleSpec {
  readonly id: string;
  readonly kind: string;
  readonly reason: string;
  readonly schemes: string;
  readonly keywords: readonly string[];
}

function urlRule(spec: UrlRuleSpec): SecretRule {
  return {
    id: spec.id,
    kind: spec.kind,
    reason: spec.reason,
    confidence: "high",
    keywords: spec.keywords,
    pattern: pattern(String.raw`(?<![A-Za-z0-9+.\-])(?:${spec.schemes})://${USERINFO}`, "i"),
    assess: assessUrlPassword,
  };
}

const DOC_NOTE =
  " Documentation passwords (`password`, `changeme`, the user name repeated, three characters or fewer), port-only values and RFC 2606 `example.*` hosts are skipped.";

export const URL_RULES: readonly SecretRule[] = [
  urlRule({
    id: "postgres-url-password",
    kind: "postgres-url-password",
    reason: `PostgreSQL connection URLs (\`postgres://\`, \`postgresql://\`, \`postgresql+driver://\`): the password between \`user:\` and \`@\`.${DOC_NOTE}`,
    schemes: String.raw`postgres(?:ql)?(?:\+[a-z0-9]+)?`,
    keywords: ["postgres"],
  }),
  urlRule({
    id: "mysql-url-password",
    kind: "mysql-url-password",
    reason: `MySQL and MariaDB connection URLs (\`mysql://\`, \`mysql+driver://\`, \`mariadb://\`): the password.${DOC_NOTE}`,
    schemes: String.raw`mysql(?:\+[a-z0-9]+)?|mariadb`,
    keywords: ["mysql", "mariadb"],
  }),
  urlRule({
    id: "mongodb-url-password",
    kind: "mongodb-url-password",
    reason: `MongoDB connection strings (\`mongodb://\`, \`mongodb+srv://\`): the password.${DOC_NOTE}`,
    schemes: String.raw`mongodb(?:\+srv)?`,
    keywords: ["mongodb"],
  }),
  urlRule({
    id: "redis-url-password",
    kind: "redis-url-password",
    reason: `Redis URLs (\`redis://\`, \`rediss://\`), including the password-only form \`redis://:pw@host\`.${DOC_NOTE}`,
    schemes: "rediss?",
    keywords: ["redis"],
  }),
  urlRule({
    id: "amqp-url-password",
    kind: "amqp-url-password",
    reason: `AMQP broker URLs (RabbitMQ \`amqp://\`, \`amqps://\`): the password.${DOC_NOTE}`,
    schemes: "amqps?",
    keywords: ["amqp"],
  }),
  urlRule({
    id: "database-url-password",
    kind: "database-url-password",
    reason: `Other database and broker URLs (SQL Server, CockroachDB, ClickHouse, Oracle, Neo4j, CouchDB, Cassandra, Kafka, NATS, MQTT, Elasticsearch, InfluxDB, Snowflake): the password.${DOC_NOTE}`,
    schemes:
      "mssql|sqlserver|cockroachdb|clickhouse|oracle|neo4j(?:\\+s)?|bolt|couchdb|cassandra|kafka|nats|mqtts?|elasticsearch|influxdb|snowflake",
    keywords: [
      "mssql",
      "sqlserver",
      "cockroachdb",
      "clickhouse",
      "oracle",
      "neo4j",
      "bolt",
      "couchdb",
      "cassandra",
      "kafka",
      "nats",
      "mqtt",
      "elasticsearch",
      "influxdb",
      "snowflake",
    ],
  }),
  urlRule({
    id: "url-password",
    kind: "url-password",
    reason: `Basic-auth credentials in any other URL (\`https://user:pass@host\`, \`ftp://\`, \`ssh://\`, \`git+https://\`, \`smtp://\`, \`ldap://\`…): the password. \`git@host:org/repo\` has no password and never matches.${DOC_NOTE}`,
    schemes: String.raw`(?:git\+)?https?|s?ftps?|ssh|git|svn|wss?|smtps?|imaps?|pop3s?|ldaps?|sftp|rtsp|socks5h?`,
    keywords: ["://"],
  }),
];
