/**
 * Codes people tell an assistant in prose: a card or phone PIN, a one-time code, an app password.
 * None has a provider format; each is recognised by the words that introduce it and by its own
 * shape (a PIN is 4–8 digits, a one-time code 4–8 digits or letters with a digit, an app password
 * 16 letters, often in groups of four). They report `medium`.
 *
 * @module
 */

import type { SecretRule } from "../types.js";
import { pattern } from "./shape.js";

// "PIN is 9051", "PIN: 9051", "PIN code is now 9051", "PIN number = 9051".
const INTRODUCED = String.raw`[ \t]*(?:(?:is|was)(?:[ \t]+(?:now|still))?[ \t]*:?|:|=|->)[ \t]*`;

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
      'A PIN given in prose or as a field: "my debit card PIN is 9051", "SIM PIN: 4821", `pin_code=7310`. 4–8 digits right after `PIN`, `PIN code` or `PIN number` and `is`, `:` or `=`; a run such as 1234 or 0000 is an example, and "pin 13" of a circuit has too few digits.',
    confidence: "medium",
    keywords: ["pin"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])pin(?:[ _\-]?(?:code|number))?${INTRODUCED}(?<value>\d{4,8})(?![\d.,:/-]\d|[A-Za-z])`,
      "i",
    ),
    assess: ({ value }) => (isTrivialNumber(value) ? null : "medium"),
  },
  {
    id: "access-code",
    kind: "pin",
    reason:
      'A code that opens something, in prose: "garage door code 5447", "alarm code for the warehouse: 5621", "the gate code is 2580#", "safe combination 8-31-77". 4–8 digits after a door, gate, alarm, safe, lock, keypad, entry or locker code (or combination), with `is`, `:`, `=` or only a space; runs such as 1234 are examples.',
    confidence: "medium",
    keywords: ["code", "combination"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])(?:door|gate|garage|alarm|safe|lock|keypad|entry|locker|padlock|intercom|lockbox|key[ -]?safe)(?:[ \t]+door)?[ \t]+(?:code|combination|combo)(?:[ \t]+for[ \t]+[^\n.,;:!?]{1,40}?)?(?:${INTRODUCED}|[ \t]+)(?<value>\d{4,8}|\d{1,2}-\d{1,2}-\d{1,2})#?(?![\d.,:/-]\d|[A-Za-z])`,
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
