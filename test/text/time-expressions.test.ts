import { describe, expect, it } from "vitest";
import { asksForTime, datesNamed, statesTime, withinDates } from "../../src/text/time-expressions.js";

describe("time in text", () => {
  it("knows a question that asks for a time", () => {
    for (const q of [
      "When did Caroline go to the support group?",
      "How long has Mel been married?",
      "What year did they move?",
      "Since when has he played violin?",
      "How many years ago did she start?",
    ])
      expect(asksForTime(q), q).toBe(true);
    for (const q of ["What does Caroline paint?", "Who is Poppy?", "Why did she move?"])
      expect(asksForTime(q), q).toBe(false);
  });

  it("reads the calendar dates a text names, and not the verb may", () => {
    expect(datesNamed("What did Mel do in May 2023?")).toEqual([{ month: 5, year: 2023 }]);
    expect(datesNamed("on 7 May")).toEqual([{ day: 7, month: 5 }]);
    expect(datesNamed("August 14th, 2022")).toEqual([{ month: 8, day: 14, year: 2022 }]);
    expect(datesNamed("What did they do in May?")).toEqual([{ month: 5 }]);
    expect(datesNamed("back in 2019")).toEqual([{ year: 2019 }]);
    expect(datesNamed("the trip on 2023-05-08")).toEqual([{ year: 2023, month: 5, day: 8 }]);
    expect(datesNamed("I may go to Paris; we jam on Mondays")).toEqual([]);
  });

  it("matches an instant against the dates, in UTC", () => {
    const at = "2023-05-08T13:56:00.000Z";
    expect(withinDates(at, [{ month: 5, year: 2023 }])).toBe(true);
    expect(withinDates(at, [{ year: 2022 }, { day: 8, month: 5 }])).toBe(true);
    expect(withinDates(at, [{ day: 7, month: 5 }])).toBe(false);
    expect(withinDates(at, [])).toBe(false);
    expect(withinDates("not a date", [{ year: 2023 }])).toBe(false);
  });

  it("knows a text that states a time", () => {
    for (const text of [
      "I painted a sunrise yesterday",
      "We moved two years ago",
      "The concert is next Friday",
      "I started in June",
      "Back in 2019 I took up pottery",
      "The class starts at 5 pm",
      "We camp every summer",
    ])
      expect(statesTime(text), text).toBe(true);
    for (const text of ["I may go to Paris", "I love pottery", "She paints lakes"])
      expect(statesTime(text), text).toBe(false);
  });
});
