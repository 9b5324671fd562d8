/**
 * Codes people tell an assistant in prose: a card or phone PIN, a one-time code, an app password.
 * None has a provider format; each is recognised by the words that introduce it and by its own
 * shape (a PIN is 4–8 digits, a one-time code 4–8 digits or letters with a digit, an app password
 * 16 letters, often in groups of four). They report `medium`.
 *
 * @module
 */

import { isLuhnValid } from "../checksums.js";
import type { SecretRule } from "../types.js";
import { pattern } from "./shape.js";

// "PIN is 9051", "PIN: 9051", "PIN code is now 9051", "PIN number = 9051".
const INTRODUCED = String.raw`[ \t]*(?:(?:is|was)(?:[ \t]+(?:now|still))?[ \t]*:?|(?:(?:has been|was|got)[ \t]+)?(?:changed|set|reset|updated)[ \t]+to|:|=|->)[ \t]*`;

const POSTAL = /\b(?:postal|post ?code|zip|postcode|pincode of)\b/iu;
// Codes that are not secrets: where a thing is, what went wrong, what something is sold as.
const PUBLIC_CODES =
  /\b(?:zip|postal|post|area|country|dialling|dialing|error|status|exit|return|product|promo|promotion|discount|coupon|voucher|tracking|sort|airport|iata|icao|ifsc|swift|bic|hs|tax|qr|bar|source|zone|colou?r|course|class|room|station|building|dress|zip)\s+codes?\b[^.\n]{0,10}$/iu;

/** The same digit four times or more, or a run up or down (1234, 9876): a made-up example, not a PIN. */
function isTrivialNumber(value: string): boolean {
  if (/^(\d)\1+$/.test(value)) return true;
  const steps = new Set([...value].slice(1).map((digit, index) => Number(digit) - Number(value[index])));
  return steps.size === 1 && (steps.has(1) || steps.has(-1));
}

export const PERSONAL_CODE_RULES: readonly SecretRule[] = [
  {
    id: "pin-code",
    kind: "pin",
    reason:
      'A PIN given in prose or as a field: "my debit card PIN is 9051", "SIM PIN: 4821", `pin_code=7310`, "garage keypad PIN 5830". 4–8 digits right after `PIN`, `PIN code`, `PIN number` or `passcode` ("Mom\'s iPad passcode is 381907"); a run such as 1234 or 0000 is an example, "pin 13" of a circuit has too few digits, and a text that says "postal" or "zip" means India\'s postal PIN code.',
    confidence: "medium",
    keywords: ["pin", "passcode"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])(?:pin(?:[ _\-]?(?:code|number))?|passcode)(?:${INTRODUCED}|[ \t]+)(?<value>\d{4,8})(?![\d.,:/-]\d|[A-Za-z])`,
      "i",
    ),
    // India calls its postal code a PIN code: "PIN code 560034, the postal code for Koramangala".
    assess: ({ value, text }) => (isTrivialNumber(value) || POSTAL.test(text) ? null : "medium"),
  },
  {
    id: "access-code",
    kind: "pin",
    reason:
      'A code that opens something, in prose: "garage door code 5447", "alarm code for the warehouse: 5621", "the gate code is 2580#", "safe combination 8-31-77". 4–8 digits after a door, gate, alarm, disarm, safe, lock, keypad, entry, locker, override or unlock code (or combination), with `is`, `:`, `=` or only a space; runs such as 1234 are examples.',
    confidence: "medium",
    keywords: ["code", "combination"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])(?:door|gate|garage|alarm|disarm|safe|lock|keypad|entry|locker|padlock|intercom|lockbox|key[ -]?safe|override|unlock)(?:[ \t]+door)?[ \t]+(?:code|combination|combo)(?:[ \t]+for[ \t]+[^\n.,;:!?]{1,40}?)?(?:[ \t]*\([^)\n]{1,30}\))?(?:${INTRODUCED}|[ \t]+)(?<value>\d{4,8}|\d{1,2}-\d{1,2}-\d{1,2})#?(?![\d.,:/-]\d|[A-Za-z])`,
      "i",
    ),
    assess: ({ value }) => (isTrivialNumber(value.replace(/-/gu, "")) ? null : "medium"),
  },
  {
    id: "one-time-code",
    kind: "one-time-code",
    reason:
      'A one-time code: "the verification code is 482913", "2FA code: 551 204", "OTP = 730214", "backup code 8f3k2m9q", "2FA backup code for Dropbox: 518364". 4–10 digits (one space or hyphen allowed inside), or 8–10 letters and digits with a digit, after a code word (`verification`, `security`, `login`, `sign-in`, `2FA`, `MFA`, `one-time`, `backup`, `recovery`, `authentication`, `OTP`, `TOTP`).',
    confidence: "medium",
    keywords: ["code", "otp"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])(?:(?:(?:2fa|mfa|two[ -]factor)[ \t]+)?(?:verification|security|login|log-in|sign[ -]?in|2fa|mfa|two[ -]factor|one[ -]time|backup|recovery|auth(?:entication)?)[ \t]+codes?|t?otp)(?:[ \t]+for[ \t]+[^\n.,;:!?]{1,40}?)?(?:[ \t]+(?:is|was))?[ \t]*(?::|=|-|is)?[ \t]*(?<value>\d{3,5}[ -]?\d{1,5}|(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{8,10})(?![A-Za-z0-9])`,
      "i",
    ),
    assess: ({ value }) => {
      const digits = value.replace(/[ -]/g, "");
      if (/^\d+$/.test(digits)) return digits.length >= 4 && !isTrivialNumber(digits) ? "medium" : null;
      return "medium";
    },
  },
  {
    id: "lock-combination",
    kind: "pin",
    reason:
      'A lock\'s combination or a door code, in English or the words French, Spanish, Italian and German notes use: "Combination on the blue Samsonite lock is 5-8-2", "Le code du cadenas du vélo : 3-1-9-6", "Zahlenschloss 0-6-4-9", "Digicode de l\'immeuble : 4827B", an alarm\'s "disarm — 6 1 8 2". Three to eight digits, spaced or hyphenated, after the word and a colon, dash, `is` or a space.',
    confidence: "medium",
    keywords: [
      "combination",
      "combo",
      "cadenas",
      "candado",
      "lucchetto",
      "zahlenschloss",
      "digicode",
      "disarm",
    ],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])(?:combination|combo|cadenas|candado|lucchetto|zahlenschloss|digicode|disarm)\b[^\n:=]{0,40}?(?:[ \t]+is|[ \t]*[:=—–-]|(?=[ \t]+\d))[ \t]*(?<value>\d(?:[ -]?\d){2,7}[A-Z]?)(?![\d.,:/]\d|[a-z])`,
      "i",
    ),
    assess: ({ value }) =>
      isTrivialNumber(value.replace(/[ -]/gu, "").replace(/[A-Z]$/iu, "")) ? null : "medium",
  },
  {
    id: "bitlocker-recovery-key",
    kind: "recovery-key",
    reason:
      "A BitLocker recovery key: eight groups of six digits, each a multiple of 11 (Microsoft's own check). Whoever has it unlocks the disk. `high` when every group passes the check, `medium` beside the words `recovery key` when not.",
    confidence: "high",
    keywords: ["-"],
    pattern: pattern(String.raw`(?<![\d-])(?<value>\d{6}(?:-\d{6}){7})(?![\d-])`),
    assess: ({ value, text }) => {
      if (value.split("-").every((group) => Number(group) % 11 === 0)) return "high";
      return /recovery key/iu.test(text) ? "medium" : null;
    },
  },
  {
    id: "license-key",
    kind: "license-key",
    reason:
      'A software licence, product or activation key after its name: "licence key: ABCD-EFGH-IJKL-MNOP-QRST", "Windows product key …". Four to six groups of 4–6 capitals and digits; a key of one repeated character (`XXXXX-XXXXX-…`) is a placeholder.',
    confidence: "medium",
    keywords: ["licence", "license", "product key", "serial", "activation", "registration"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])(?:licen[cs]e|product|serial|activation|registration)[ \t]+(?:key|code|number)[ \t]*(?:[:=]|is)?[ \t]*(?<value>[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){3,5})(?![A-Za-z0-9-])`,
      "i",
    ),
    assess: ({ value }) => (/^([A-Z0-9])(?:\1|-)*$/iu.test(value) ? null : "medium"),
  },
  {
    id: "passphrase-words",
    kind: "password",
    reason:
      'A passphrase of three to twelve words after `passphrase` (and what it is for) and a colon or `is`: "passphrase for the GPG key: correct horse battery staple". The value is words, so the one-token password rules miss it.',
    confidence: "medium",
    keywords: ["passphrase"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])passphrase(?:[ \t]+for[ \t]+[^\n:=]{1,40}?)?[ \t]*(?::|=|[ \t]is)[ \t]*(?<value>[a-z]{2,12}(?:[ -][a-z]{2,12}){2,11})(?![A-Za-z])`,
      "i",
    ),
    assess: ({ value }) => (/\b(?:in|the|stored|kept|saved|on)\b/iu.test(value) ? null : "medium"),
  },
  {
    id: "code-given",
    kind: "one-time-code",
    reason:
      'A six-digit code someone was sent and wrote down: "the code the bank sent me is 662190", "Apple ID code: 417302". Exactly six digits after `code is` or `code:`; a zip, postal, area, error, status, product, discount or tracking code (and the like) is public, and says so.',
    confidence: "medium",
    keywords: ["code"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])codes?(?:[ \t]+[a-z]+){0,6}?(?:[ \t]+(?:is|was)|[ \t]*:)[ \t]*(?<value>\d{6})(?![\d.,:/-]\d|[A-Za-z])`,
      "i",
    ),
    assess: ({ value, text, matchStart }) =>
      isTrivialNumber(value) ||
      PUBLIC_CODES.test(text.slice(Math.max(0, matchStart - 40), matchStart + 5)) ||
      POSTAL.test(text)
        ? null
        : "medium",
  },
  {
    id: "seed-phrase",
    kind: "seed-phrase",
    reason:
      "A wallet's recovery phrase: 12 to 24 lower-case words after `seed phrase`, `recovery phrase`, `mnemonic`, `seed words` or `secret recovery phrase`. Whoever has the words has the wallet.",
    confidence: "medium",
    keywords: ["seed", "mnemonic", "recovery phrase"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])(?:(?:secret[ \t]+)?recovery[ \t]+phrase|seed[ \t]+(?:phrase|words)|mnemonic(?:[ \t]+phrase)?|wallet[ \t]+seed)[^\n:=]{0,48}?[:=\-—][ \t]*(?<value>(?:[a-z]{3,8}[ \t,]+){11,23}[a-z]{3,8})(?![A-Za-z])`,
      "i",
    ),
    assess: () => "medium",
  },
  {
    id: "payment-card",
    kind: "payment-card",
    reason:
      "A payment card number near a card word (`card`, `visa`, `mastercard`, `amex`, `debit`, `credit`, `cvv`, `cvc`, `exp`): 13–19 digits, in groups or not, that pass the Luhn check every issuer uses, so an order or tracking number of the same length almost never matches.",
    confidence: "medium",
    keywords: ["card", "visa", "mastercard", "amex", "debit", "credit", "cvv", "cvc"],
    pattern: pattern(String.raw`(?<![\d-])(?<value>\d{4}(?:[ -]?\d{3,4}){2,3}(?:[ -]?\d{1,3})?)(?![\d-])`),
    assess: ({ value }) => {
      const digits = value.replace(/[ -]/gu, "");
      return digits.length >= 13 && digits.length <= 19 && isLuhnValid(digits) ? "medium" : null;
    },
  },
  {
    id: "app-password",
    kind: "app-password",
    reason:
      'An app password (Google, Apple, Microsoft and mail clients hand them out for IMAP/SMTP and old clients): 16 letters, often shown as four groups of four ("abcd efgh ijkl mnop", `abcd-efgh-ijkl-mnop`), after `app password` or `app-specific password`.',
    confidence: "medium",
    keywords: ["app password", "app-specific password", "app specific password", "application password"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])app(?:lication)?[ \t-]?(?:specific[ \t-])?password(?:[ \t]+for[ \t]+[^\n.,;:!?]{1,40}?)?${INTRODUCED}(?<value>[a-z]{4}(?:[ -]?[a-z]{4}){3})(?![A-Za-z0-9])`,
      "i",
    ),
    assess: () => "medium",
  },
];
