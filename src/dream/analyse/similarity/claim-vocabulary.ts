/**
 * The vocabulary claim rules read values with: which tools are alternatives to one another, which
 * roles one person holds at a time, which diets exclude each other, and the aliases that make
 * "VS Code" and "vscode" one value.
 *
 * @module
 */

/**
 * Tools of which a person has one at a time, by kind. "Prefers Vim" and "prefers VS Code" only
 * disagree because both are editors; "prefers tea" names no kind and is never a claim.
 * Programming languages and databases are left out on purpose: people and services use several.
 */
export const TOOL_KINDS: Readonly<Record<string, readonly string[]>> = {
  editor: [
    "vim",
    "neovim",
    "emacs",
    "vs code",
    "sublime text",
    "intellij",
    "webstorm",
    "pycharm",
    "zed",
    "helix",
    "nano",
    "cursor",
    "atom",
    "xcode",
  ],
  shell: ["bash", "zsh", "fish", "nushell", "powershell"],
  browser: ["firefox", "chrome", "safari", "arc", "edge", "brave", "vivaldi", "chromium"],
  "package manager": ["npm", "pnpm", "yarn", "bun"],
  "test runner": ["vitest", "jest", "mocha", "ava", "pytest"],
  terminal: ["iterm2", "iterm", "alacritty", "kitty", "wezterm", "ghostty", "warp"],
  indentation: ["tabs", "spaces"],
  theme: ["dark mode", "light mode", "dark theme", "light theme"],
};

/** Nouns naming a kind of tool in "X's preferred editor is", "uses X as the default shell". */
export const TOOL_NOUNS: Readonly<Record<string, string>> = {
  editor: "editor",
  "text editor": "editor",
  "code editor": "editor",
  ide: "editor",
  shell: "shell",
  browser: "browser",
  "web browser": "browser",
  "package manager": "package manager",
  "test runner": "test runner",
  terminal: "terminal",
};

/** Spellings of one value: the claim compares canonical forms. */
export const VALUE_ALIASES: Readonly<Record<string, string>> = {
  vscode: "vs code",
  "visual studio code": "vs code",
  nvim: "neovim",
  "amazon web services": "aws",
  gcp: "google cloud",
  "google cloud platform": "google cloud",
  k8s: "kubernetes",
  "google kubernetes engine": "gke",
  postgres: "postgresql",
  pg: "postgresql",
  nodejs: "node.js",
  node: "node.js",
  "google chrome": "chrome",
  "mozilla firefox": "firefox",
  fly: "fly.io",
  pescetarian: "pescatarian",
  "dark theme": "dark mode",
  "light theme": "light mode",
  tab: "tabs",
  space: "spaces",
};

/**
 * Roles one person holds for a subject at a time ("Alice's manager"). Sister, friend or report are
 * not here: one has several, so two different names are not a contradiction.
 */
export const SINGLE_ROLES: Readonly<Record<string, string>> = {
  manager: "manager",
  boss: "manager",
  "line manager": "manager",
  "engineering manager": "manager",
  "direct manager": "manager",
  "tech lead": "lead",
  "team lead": "lead",
  "technical lead": "lead",
  lead: "lead",
  owner: "owner",
  "product owner": "product owner",
  ceo: "ceo",
  cto: "cto",
  wife: "spouse",
  husband: "spouse",
  spouse: "spouse",
  landlord: "landlord",
};

/** Occupations read from "X is a nurse"; "works as a …" accepts any value. */
export const OCCUPATIONS: ReadonlySet<string> = new Set(
  (
    "nurse pharmacist physiotherapist physio teacher engineer developer designer doctor lawyer architect " +
    "accountant dentist chef student researcher scientist journalist writer photographer consultant " +
    "electrician plumber carpenter mechanic paramedic surgeon veterinarian vet librarian translator"
  ).split(" "),
);

/** Diets as claim values: labels people use, and what eating meat or fish implies. */
export const DIETS = ["vegan", "vegetarian", "pescatarian", "meat", "fish"] as const;
export type Diet = (typeof DIETS)[number];

/** What eating a food says about a diet: "eats steak" is a meat diet. */
export const DIET_FOODS: Readonly<Record<string, Diet>> = Object.fromEntries([
  ...[
    "meat",
    "steak",
    "beef",
    "pork",
    "chicken",
    "bacon",
    "lamb",
    "burgers",
    "burger",
    "ham",
    "turkey",
    "sausages",
  ].map((food) => [food, "meat"] as const),
  ...["fish", "salmon", "tuna", "cod", "seafood", "prawns", "shrimp"].map((food) => [food, "fish"] as const),
]);

/**
 * Diet pairs that cannot both hold. Vegan and vegetarian can (a vegan is vegetarian), and so can
 * pescatarian and fish; a vegetarian eating fish, or anyone but a meat-eater eating meat, cannot.
 */
const INCOMPATIBLE_DIETS: ReadonlySet<string> = new Set([
  "vegan|pescatarian",
  "vegan|meat",
  "vegan|fish",
  "vegetarian|pescatarian",
  "vegetarian|meat",
  "vegetarian|fish",
  "pescatarian|meat",
]);

/**
 * Whether two diets contradict each other.
 *
 * @example
 * dietsConflict("vegetarian", "meat"); // => true
 * dietsConflict("vegan", "vegetarian"); // => false
 */
export function dietsConflict(a: string, b: string): boolean {
  return INCOMPATIBLE_DIETS.has(`${a}|${b}`) || INCOMPATIBLE_DIETS.has(`${b}|${a}`);
}

/**
 * The kind of tool a value is, if it is one ("neovim" → "editor").
 *
 * @example
 * toolKind("neovim"); // => "editor"
 * toolKind("tea"); // => undefined
 */
export function toolKind(value: string): string | undefined {
  for (const [kind, tools] of Object.entries(TOOL_KINDS)) if (tools.includes(value)) return kind;
  return undefined;
}
