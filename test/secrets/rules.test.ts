import { describe, expect, it } from "vitest";
import { base62Crc32 } from "../../src/secrets/checksums.js";
import { type Finding, findSecrets } from "../../src/secrets/index.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";

// Fake values come from the generator, never from literals: see test/fixtures/secrets/README.md.
const fake = createFakeSecrets(99);
const make = (name: string): string => {
  const generate = fake[name];
  if (generate === undefined) throw new Error(`no generator ${name}`);
  return generate();
};

/** `kind:value:confidence` for each finding, which reads well in failures. */
function found(text: string): string[] {
  return findSecrets(text).map((f: Finding) => `${f.kind}:${text.slice(f.start, f.end)}:${f.confidence}`);
}

describe("GitHub and npm checksums", () => {
  it("reports a token with a valid CRC32 as high, a tampered one as medium", () => {
    const token = make("github-pat");
    expect(found(`use ${token}`)).toEqual([`github-pat:${token}:high`]);
    const last = token.at(-1) === "0" ? "1" : "0";
    const tampered = token.slice(0, -1) + last;
    expect(found(`use ${tampered}`)).toEqual([`github-pat:${tampered}:medium`]);
  });

  it("checks npm tokens the same way", () => {
    const token = make("npm-token");
    expect(found(token)).toEqual([`npm-token:${token}:high`]);
    const body = token.slice(4, 34);
    expect(token.slice(34)).toBe(base62Crc32(body));
  });

  it("needs exactly 36 characters after the prefix and a boundary on both sides", () => {
    const token = make("github-pat");
    expect(found(token.slice(0, -1))).toEqual([]);
    expect(found(`${token}X`)).toEqual([]);
    expect(found(`x${token}`)).toEqual([]);
    expect(found(`(${token}).`)).toHaveLength(1);
  });
});

describe("AWS", () => {
  it("takes a secret key only near an AWS keyword", () => {
    const secret = make("aws-secret-access-key");
    expect(found(`backup: ${secret}`)).toEqual([]);
    expect(found(`aws backup: ${secret}`)).toEqual([`aws-secret-access-key:${secret}:medium`]);
  });

  it("does not take a git SHA or a path next to `aws`", () => {
    expect(found(`aws deploy at ${make("git-sha")}`)).toEqual([]);
    expect(found("aws s3 cp s3://bucket/one/two/three/four/five/six/seven/x.txt .")).toEqual([]);
  });

  it("bounds access key ids", () => {
    const id = make("aws-access-key-id");
    expect(found(`${id}`)).toEqual([`aws-access-key-id:${id}:high`]);
    expect(found(`${id}A`)).toEqual([]);
    expect(found(`X${id}`)).toEqual([]);
  });
});

describe("sk- keys", () => {
  it("tells OpenAI (with and without the T3BlbkFJ marker), Anthropic, OpenRouter and others apart", () => {
    const openai = make("openai-api-key");
    expect(found(openai)).toEqual([`openai-api-key:${openai}:high`]);
    const unmarked = openai.replace("T3BlbkFJ", "Q9wErTy1");
    expect(found(unmarked)).toEqual([`openai-api-key:${unmarked}:medium`]);
    expect(found(make("anthropic-api-key"))[0]).toMatch(/^anthropic-api-key:/);
    expect(found(make("openrouter-api-key"))[0]).toMatch(/^openrouter-api-key:/);
    expect(found(make("sk-api-key"))[0]).toMatch(/^sk-api-key:/);
  });

  it("ignores sk- inside words and sk- followed by words", () => {
    expect(found("task-runner risk-averse desk-booking ask-me-anything whisk-broom")).toEqual([]);
    expect(found("sk-learn-pipeline-for-feature-engineering-and-more-words")).toEqual([]);
  });
});

describe("chat platforms", () => {
  it("requires a Discord token's first part to decode to a numeric id", () => {
    const token = make("discord-bot-token");
    expect(found(token)).toEqual([`discord-bot-token:${token}:high`]);
    const [, rest] = token.split(/\.(.*)/s);
    const notAnId = `${Buffer.from("hello-there-world-xyz", "latin1").toString("base64url").slice(0, 24)}.${rest}`;
    expect(found(notAnId)).toEqual([]);
  });

  it("requires an 8–10 digit Telegram bot id", () => {
    const token = make("telegram-bot-token");
    expect(found(`bot token ${token}`)).toEqual([`telegram-bot-token:${token}:high`]);
    expect(found(`bot token 1234567:${token.split(":")[1]}`)).toEqual([]);
    expect(found(`bot token 12345678901:${token.split(":")[1]}`)).toEqual([]);
  });
});

describe("JWT", () => {
  it("needs a header that decodes to JSON with alg, and leaves sentence punctuation out", () => {
    const jwt = make("jwt");
    expect(found(`token ${jwt}.`)).toEqual([`jwt:${jwt}:high`]);
    const noAlg = `${Buffer.from('{"typ":"JWT"}').toString("base64url")}.${jwt.split(".")[1]}.${jwt.split(".")[2]}`;
    expect(found(noAlg)).toEqual([]);
  });

  it("wins over the bearer rule for the same span", () => {
    const jwt = make("jwt");
    expect(found(`Authorization: Bearer ${jwt}`)).toEqual([`jwt:${jwt}:high`]);
  });
});

describe("private keys", () => {
  it("spans a whole block, and stops a truncated one after its last base64 line", () => {
    const block = make("private-key-rsa");
    expect(found(`key:\n${block}\nbye`)).toEqual([`private-key:${block}:high`]);
    const truncated = make("private-key-truncated");
    expect(found(`${truncated}\nand then the chat ended.`)).toEqual([`private-key:${truncated}:high`]);
  });

  it("ignores a header with no key body", () => {
    expect(found("PEM files start with -----BEGIN PRIVATE KEY----- as their first line")).toEqual([]);
    expect(found("the -----BEGIN OPENSSH PRIVATE KEY----- line opens an ssh key")).toEqual([]);
  });

  it("takes a block closed by its END line whatever the length of its body", () => {
    const short =
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\n-----END OPENSSH PRIVATE KEY-----";
    expect(found(`my deploy key:\n${short}`)).toEqual([`openssh-private-key:${short}:high`]);
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj3FAKEx\n-----END RSA PRIVATE KEY-----";
    expect(found(pem)).toEqual([`private-key:${pem}:high`]);
  });
});

describe("private keys inside JSON and code strings", () => {
  it("spans a service-account key's escaped PEM up to its END line", () => {
    const block = make("gcp-service-account-private-key");
    expect(block).toContain("\\n");
    const json = `{"type": "service_account", "private_key": "${block}\\n", "client_email": "x@fake.iam.gserviceaccount.com"}`;
    expect(found(json)).toEqual([`private-key:${block}:high`]);
  });

  it("reads \\r\\n escapes, and escapes escaped once more, as line breaks", () => {
    const crlf = make("private-key-crlf-escaped");
    expect(crlf).toContain("\\r\\n");
    expect(found(`KEY="${crlf}"`)).toEqual([`private-key:${crlf}:high`]);
    const twice = make("gcp-service-account-private-key").replaceAll("\\n", "\\\\n");
    expect(found(`"{\\"private_key\\": \\"${twice}\\\\n\\"}"`)).toEqual([`private-key:${twice}:high`]);
  });

  it("stops an escaped block without its END line after its last base64 line", () => {
    const block = make("gcp-service-account-private-key");
    const truncated = block.slice(0, block.indexOf("\\n", 200));
    expect(found(`"private_key": "${truncated}\\n", "client_id": "1"`)).toEqual([
      `private-key:${truncated}:high`,
    ]);
  });

  it("ignores escaped headers with no key body", () => {
    expect(
      found('const pem = "-----BEGIN PRIVATE KEY-----\\n" + body + "\\n-----END PRIVATE KEY-----";'),
    ).toEqual([]);
    expect(
      found('"private_key": "-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----\\n"'),
    ).toEqual([]);
    expect(found('key = "-----BEGIN OPENSSH PRIVATE KEY-----\\n"')).toEqual([]);
  });
});

describe("Cloudflare and Atlassian checksums", () => {
  const tamper = (token: string) => token.slice(0, -1) + (token.at(-1) === "0" ? "1" : "0");

  it.each([
    ["cloudflare-api-token", "cloudflare-api-token"],
    ["cloudflare-account-token", "cloudflare-api-token"],
    ["cloudflare-global-api-key", "cloudflare-global-api-key"],
    ["atlassian-api-token", "atlassian-api-token"],
    ["atlassian-org-token", "atlassian-api-token"],
  ])("%s: high with a valid CRC32, medium with a tampered one", (generator, kind) => {
    const token = make(generator);
    expect(found(`use ${token}`)).toEqual([`${kind}:${token}:high`]);
    expect(found(`use ${tamper(token)}`)).toEqual([`${kind}:${tamper(token)}:medium`]);
  });

  it("needs the exact Cloudflare length", () => {
    const token = make("cloudflare-api-token");
    expect(found(token.slice(0, -1))).toEqual([]);
    expect(found(`${token}a`)).toEqual([]);
  });
});

describe("more specific prefixes win", () => {
  it("reads sk-lf- as a Langfuse secret key, never as an sk- key, and leaves pk-lf- alone", () => {
    const secret = make("langfuse-secret-key");
    expect(found(secret)).toEqual([`langfuse-secret-key:${secret}:high`]);
    expect(found(`LANGFUSE_SECRET_KEY=${secret}`)).toEqual([`langfuse-secret-key:${secret}:high`]);
    expect(found(`LANGFUSE_PUBLIC_KEY=${make("langfuse-public-key")}`)).toEqual([]);
    const sk = make("sk-api-key");
    expect(found(sk)).toEqual([`sk-api-key:${sk}:medium`]);
  });

  it("redacts a whole 1Password service-account token, past the generic rules' 300-character cap", () => {
    const token = make("1password-service-account-token");
    expect(token.length).toBeGreaterThan(300);
    expect(found(`OP_SERVICE_ACCOUNT_TOKEN=${token}`)).toEqual([
      `1password-service-account-token:${token}:high`,
    ]);
    // Base64 of non-ASCII bytes holds `+` and `/`, where the generic rules' value would stop.
    const spliced = `${token.slice(0, 200)}+/${token.slice(200)}`;
    expect(found(`OP_SERVICE_ACCOUNT_TOKEN=${spliced}`)).toEqual([
      `1password-service-account-token:${spliced}:high`,
    ]);
  });

  it("takes dotted Doppler tokens after a keyword, which the generic rules cannot", () => {
    const token = make("doppler-service-token");
    expect(found(`DOPPLER_TOKEN=${token}.`)).toEqual([`doppler-token:${token}:high`]);
  });

  it("leaves a PlanetScale token's sentence full stop out", () => {
    const token = make("planetscale-token");
    expect(found(`the token is ${token}.`)).toEqual([`planetscale-token:${token}:high`]);
  });

  it("takes an Atlassian token used as a URL password as the Atlassian kind", () => {
    const token = make("atlassian-org-token");
    expect(found(`https://x-token-auth:${token}@bitbucket.org/acme/app.git`)).toEqual([
      `atlassian-api-token:${token}:high`,
    ]);
  });
});

describe("codes people say", () => {
  it.each([
    ["my debit card PIN is 9051", "pin:9051"],
    ["SIM PIN: 4821", "pin:4821"],
    ["pin_code=7310", "pin:7310"],
    ["the alarm PIN is now 6620.", "pin:6620"],
    ["Your verification code is 482913", "one-time-code:482913"],
    ["2FA code: 551 204", "one-time-code:551 204"],
    ["OTP = 730214", "one-time-code:730214"],
    ["backup code 8f3k2m9q", "one-time-code:8f3k2m9q"],
    ["App password: abcd efgh ijkl mnop", "app-password:abcd efgh ijkl mnop"],
    ["Gmail app-specific password is qwer-tyui-opas-dfgh", "app-password:qwer-tyui-opas-dfgh"],
  ])("%s", (text, expected) => {
    expect(found(text)).toEqual([`${expected}:medium`]);
  });

  it.each([
    "PIN: 1234",
    "PIN is 0000",
    "the LED is on pin 13",
    "pinned 2024 as the year to remember",
    "error code 4041",
    "security code 123",
    "the login code is in your email",
    "I need an app password for Thunderbird",
    "OTP codes expire after 30 seconds",
  ])("ignores %s", (text) => {
    expect(found(text)).toEqual([]);
  });
});

describe("URL credentials", () => {
  it("redacts only the password", () => {
    const password = make("url-password");
    expect(found(`postgres://app:${password}@db:5432/app`)).toEqual([
      `postgres-url-password:${password}:high`,
    ]);
    expect(found(`redis://:${password}@cache:6379`)).toEqual([`redis-url-password:${password}:high`]);
    expect(found(`jdbc:mysql://svc:${password}@db/crm`)).toEqual([`mysql-url-password:${password}:high`]);
  });

  it("skips documentation passwords, ports and example hosts", () => {
    expect(found("postgres://postgres:postgres@localhost")).toEqual([]);
    expect(found("https://abc:xyz@example.com")).toEqual([]);
    expect(found(`https://deploy:${make("url-password")}@example.com/x`)).toEqual([]);
    expect(found("http://localhost:8080@build/notes")).toEqual([]);
    expect(found("git@github.com:acme/infra.git")).toEqual([]);
  });
});

describe("passwords", () => {
  it("spans the value, not the keyword, and says where the keyword starts", () => {
    const text = "my password: hunter2!x";
    expect(findSecrets(text)).toEqual([
      {
        kind: "password",
        ruleId: "password-assignment",
        start: 13,
        end: 22,
        labelStart: 3,
        confidence: "medium",
      },
    ]);
  });

  it.each([
    ["DB_PASSWORD='Tr0ub4dor&3'", "Tr0ub4dor&3"],
    ['{"password": "Tr0ub4dor&3"}', "Tr0ub4dor&3"],
    ["mysql --password=Tr0ub4dor&3 shop", "Tr0ub4dor&3"],
    ["https://x.dev/login?user=a&password=Tr0ub4dor3&remember=1", "Tr0ub4dor3"],
    ['dbPassword := "Tr0ub4dor&3"', "Tr0ub4dor&3"],
    ["note: password=Tr0ub4dor&3.", "Tr0ub4dor&3"],
    ["my password is Tr0ub4dor&3, I think", "Tr0ub4dor&3"],
    ["The wifi password is now Tr0ub4dor&3", "Tr0ub4dor&3"],
    ["the password for the NAS at home is “Tr0ub4dor&3”", "Tr0ub4dor&3"],
    // A word and digits is how people make passwords up, not an identifier.
    ["password: Summer2024", "Summer2024"],
    ["DB_PASSWORD=sunflower42", "sunflower42"],
    ["password=hunter2", "hunter2"],
    ["the WiFi password is sunflower42", "sunflower42"],
  ])("%s", (text, value) => {
    expect(found(text)).toEqual([`password:${value}:medium`]);
  });

  it.each([
    "password: string;",
    "password=None",
    "Password: String",
    "password: not-required",
    "password: letmein",
    "passThroughOnException: context.passThroughOnException",
    "const pass = matchResult?.pass;",
    "password_min_length: 12",
    "the password is too short",
    "the password is in 1Password",
    "password = hashPassword(input)",
    "password: bcrypt",
    "password_hash: sha256",
    "auth: oauth2",
  ])("ignores %s", (text) => {
    expect(found(text)).toEqual([]);
  });
});

describe("generic secrets", () => {
  it("takes high-entropy values next to secret words", () => {
    expect(found("api_key = 3f9Kq7ZpL2mX8vBnQ4")).toEqual(["generic-secret:3f9Kq7ZpL2mX8vBnQ4:medium"]);
    expect(found("X-API-Key: 3f9Kq7ZpL2mX8vBnQ4")).toEqual(["generic-secret:3f9Kq7ZpL2mX8vBnQ4:medium"]);
    expect(found("the api key is 3f9Kq7ZpL2mX8vBnQ4.")).toEqual(["generic-secret:3f9Kq7ZpL2mX8vBnQ4:medium"]);
  });

  it.each([
    "max_tokens: 4096",
    "next_page_token: CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA3",
    "cache_key = d41d8cd98f00b204e9800998ecf8427e",
    "access_key_id: 3f9Kq7ZpL2mX8vBnQ4",
    "token_url: https://auth.acme.dev/oauth/token",
    "ProgressTokenSchema = z.object({ token: z.string() })",
    "key: Access-Control-Expose-Headers",
    "monkey: 3f9Kq7ZpL2mX8vBnQ4",
    "secret: aaaa1111bbbb2222",
    "encryptedKey = decodeBase64url(encodedKey)",
  ])("ignores %s", (text) => {
    expect(found(text)).toEqual([]);
  });
});

describe("keyword-only providers", () => {
  it("takes a Heroku UUID only next to `heroku`", () => {
    const uuid = make("heroku-uuid");
    expect(found(`HEROKU_API_KEY=${uuid}`)).toEqual([`heroku-api-key:${uuid}:medium`]);
    expect(found(`request ${uuid} failed`)).toEqual([]);
  });

  it("never takes a Twilio account SID for the auth token", () => {
    const sid = make("twilio-account-sid");
    const token = make("twilio-auth-token");
    expect(found(`Twilio ${sid}`)).toEqual([]);
    expect(found(`Twilio ${sid} token ${token}`)).toEqual([`twilio-auth-token:${token}:medium`]);
  });

  it("takes a Datadog key only after `dd`/`datadog` + `api key`", () => {
    const key = make("datadog-api-key");
    expect(found(`DD_API_KEY=${key}`)).toEqual([`datadog-api-key:${key}:medium`]);
    expect(found(`datadog trace ${key}`)).toEqual([]);
  });
});

describe("Basic auth", () => {
  it("decodes to user:password", () => {
    const header = make("basic-auth-header");
    expect(found(`Authorization: Basic ${header}`)).toEqual([`basic-auth-header:${header}:medium`]);
    expect(found("Basic information about the Basic plan")).toEqual([]);
  });
});
