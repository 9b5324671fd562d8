/**
 * Domain nouns: words that make a memory about something in particular even without a name or a
 * number ("prefers tabs", "allergic to peanuts"). Mem0's dream skill keeps a low-confidence
 * memory when it has "paths/identifiers/domain nouns"; this list is what Lucid counts as the
 * last of those. Singular forms; a plural "s" is dropped before lookup.
 *
 * @module
 */

const SOFTWARE =
  "api endpoint database db schema migration index query sql postgres postgresql mysql sqlite redis " +
  "mongodb kafka queue cache server client backend frontend service microservice monorepo repo " +
  "repository branch commit merge rebase git github gitlab pr ci cd pipeline build deploy deployment " +
  "release rollback rollout canary staging production prod environment config configuration yaml " +
  "json toml env docker container kubernetes k8s helm terraform ansible aws gcp azure s3 lambda " +
  "cloudflare vercel netlify heroku nginx dns http https tls ssl cdn ssh vpn proxy load balancer " +
  "typescript javascript python rust go golang java kotlin swift ruby php elixir haskell scala zig " +
  "node deno bun react vue svelte angular nextjs css html tailwind webpack vite esbuild npm pnpm " +
  "yarn pip poetry cargo maven gradle package dependency library framework module function class " +
  "interface type compiler runtime linter lint eslint biome prettier formatter test tests vitest " +
  "jest pytest unit integration e2e coverage benchmark profiler debugger log logging monitoring " +
  "metrics dashboard alert oncall incident postmortem latency timeout throughput auth oauth sso " +
  "jwt cookie session websocket grpc graphql rest regex script cli terminal shell bash zsh vim " +
  "neovim emacs vscode editor ide tab tabs spaces indentation keyboard shortcut theme font linux " +
  "macos windows ubuntu debian gpu cpu ram ssd disk backup cron scheduler sprint standup jira " +
  "ticket issue bug feature flag changelog semver version upgrade downgrade license";

const PERSONAL =
  "allergy allergic vegetarian vegan gluten lactose diet medication doctor dentist therapist " +
  "birthday anniversary wedding salary rent mortgage school university degree job employer " +
  "manager team colleague wife husband partner sister brother mother father daughter son " +
  "dog cat pet coffee tea alcohol timezone language passport visa flight hotel";

export const DOMAIN_TERMS: ReadonlySet<string> = new Set(`${SOFTWARE} ${PERSONAL}`.split(/\s+/u));

/**
 * Whether a lower-cased word is a domain noun (plural forms included).
 *
 * @example
 * isDomainTerm("databases"); // => true
 * isDomainTerm("stuff");     // => false
 */
export function isDomainTerm(word: string): boolean {
  return DOMAIN_TERMS.has(word) || (word.endsWith("s") && DOMAIN_TERMS.has(word.slice(0, -1)));
}
