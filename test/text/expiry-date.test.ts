import { describe, expect, it } from "vitest";
import { expiryDay, expiryInstant, isTimeZone, referenceInstant } from "../../src/text/expiry-date.js";

describe("expiry dates", () => {
  it("keep a day visible until the next midnight of the zone, across changes of offset", () => {
    expect(expiryInstant("2099-12-31", "e")).toBe("2100-01-01T00:00:00.000Z");
    // Paris springs forward on 29 March 2026: the 30th starts at 22:00 UTC, not 23:00.
    expect(expiryInstant("2026-03-29", "e", "Europe/Paris")).toBe("2026-03-29T22:00:00.000Z");
    expect(expiryInstant("2026-10-25", "e", "America/New_York")).toBe("2026-10-26T04:00:00.000Z");
  });

  it("start a day whose midnight does not exist at its first moment", () => {
    // Santiago's clocks jump from 00:00 to 01:00 on 8 September 2024: that day starts at 01:00 local.
    expect(referenceInstant("2024-09-08", "r", "America/Santiago")).toBe("2024-09-08T04:00:00.000Z");
    expect(expiryInstant("2024-09-07", "e", "America/Santiago")).toBe("2024-09-08T04:00:00.000Z");
    expect(expiryDay("2024-09-08T04:00:00.000Z", "America/Santiago")).toBe("2024-09-07");
  });

  it("take a timestamp with its offset as that instant, and refuse the rest naming the value", () => {
    expect(expiryInstant("2099-12-31T18:00:00+02:00", "e")).toBe("2099-12-31T16:00:00.000Z");
    for (const value of [
      "12/31/2099",
      "2099-02-30",
      "2100-02-29",
      "2099-12-31T10:00:00",
      "2099-12-31T24:00:00Z",
      5,
    ]) {
      expect(() => expiryInstant(value, "expirationDate")).toThrow(
        expect.objectContaining({
          code: "INVALID_ARGUMENT",
          message: expect.stringContaining(JSON.stringify(value)),
        }),
      );
    }
  });

  it("know the zones the runtime knows", () => {
    expect(isTimeZone("Asia/Kolkata")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
