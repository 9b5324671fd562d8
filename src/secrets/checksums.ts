/**
 * Checksums some token formats embed, so a rule can tell a well-formed token from a look-alike:
 * GitHub's and npm's base62 CRC32, age's bech32, and the Luhn digit of payment cards.
 *
 * @module
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * CRC-32 (IEEE, as zlib) of an ASCII string.
 *
 * @example
 * crc32("123456789"); // 0xcbf43926
 */
export function crc32(ascii: string): number {
  let crc = 0xffffffff;
  for (let index = 0; index < ascii.length; index++) {
    crc = (crc >>> 8) ^ (CRC_TABLE[(crc ^ ascii.charCodeAt(index)) & 0xff] ?? 0);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

// Digits, then upper case, then lower case: the order of the base62 codec GitHub's checksum uses.
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `n` in base62, left-padded with `0` to `width` characters. */
export function toBase62(n: number, width: number): string {
  let digits = "";
  let rest = n;
  while (rest > 0) {
    digits = BASE62[rest % 62] + digits;
    rest = Math.floor(rest / 62);
  }
  return digits.padStart(width, "0");
}

/**
 * The six-character checksum GitHub (2021 format) and npm put at the end of a token: the CRC32
 * of the 30 random characters after the prefix, in base62.
 *
 * @example
 * const body = "FAKE" + "a".repeat(26);
 * hasBase62Crc32(`ghp_${body}${base62Crc32(body)}`, "ghp_"); // true
 */
export function base62Crc32(randomPart: string): string {
  return toBase62(crc32(randomPart), 6);
}

/** True when `token` (prefix + 30 random + 6 checksum characters) carries a valid checksum. */
export function hasBase62Crc32(token: string, prefix: string): boolean {
  const body = token.slice(prefix.length);
  if (body.length !== 36) return false;
  return base62Crc32(body.slice(0, 30)) === body.slice(30);
}

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const BECH32_GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: readonly number[]): number {
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let bit = 0; bit < 5; bit++) {
      if ((top >>> bit) & 1) checksum ^= BECH32_GENERATOR[bit] ?? 0;
    }
  }
  return checksum;
}

function expandPrefix(prefix: string): number[] {
  const high = [...prefix].map((char) => char.charCodeAt(0) >>> 5);
  const low = [...prefix].map((char) => char.charCodeAt(0) & 31);
  return [...high, 0, ...low];
}

/**
 * True when `encoded` is a valid bech32 string (BIP-173), in either case.
 *
 * @example
 * isBech32(bech32Encode("age-secret-key-", new Array(52).fill(3))); // true
 */
export function isBech32(encoded: string): boolean {
  const lower = encoded.toLowerCase();
  const separator = lower.lastIndexOf("1");
  if (separator < 1 || lower.length - separator < 7) return false;
  const data: number[] = [];
  for (const char of lower.slice(separator + 1)) {
    const value = BECH32.indexOf(char);
    if (value < 0) return false;
    data.push(value);
  }
  return polymod([...expandPrefix(lower.slice(0, separator)), ...data]) === 1;
}

/** Encodes 5-bit groups with a bech32 checksum (lower case); the corpus uses it to build age keys. */
export function bech32Encode(prefix: string, data: readonly number[]): string {
  const values = [...expandPrefix(prefix), ...data, 0, 0, 0, 0, 0, 0];
  const mod = polymod(values) ^ 1;
  const checksum = [0, 1, 2, 3, 4, 5].map((index) => (mod >>> (5 * (5 - index))) & 31);
  return `${prefix}1${[...data, ...checksum].map((value) => BECH32[value]).join("")}`;
}

/** The Luhn sum of `digits` (doubling every second digit from the right, from `offset`). */
function luhnSum(digits: string, offset: number): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if ((i + offset) % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum;
}

/**
 * Whether a card number passes the Luhn check every issuer uses.
 *
 * @example
 * isLuhnValid("4000056655665556"); // => true
 */
export function isLuhnValid(digits: string): boolean {
  return luhnSum(digits, 0) % 10 === 0;
}

/**
 * The digit that, appended to `body`, makes it pass the Luhn check.
 *
 * @example
 * luhnCheckDigit("400005665566555"); // => "6"
 */
export function luhnCheckDigit(body: string): string {
  return String((10 - (luhnSum(body, 1) % 10)) % 10);
}
