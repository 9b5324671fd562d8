/**
 * The claim rules the contradiction analyser reads attributes with, one template at a time.
 */

import { describe, expect, it } from "vitest";
import { claimKey, extractClaims, valuesConflict } from "../../src/dream/analyse/similarity/claims.js";

/** "attribute|subject|environments = value" for each claim of `text`. */
const read = (text: string) => extractClaims(text).map((claim) => `${claimKey(claim)} = ${claim.value}`);

describe("claim rules", () => {
  it("deploy target: active, passive and object forms; an environment is not a target", () => {
    expect(read("billing-api deploys to Fly.io.")).toEqual(["deploy target|api bill| = fly.io"]);
    expect(read("The docs site is hosted on Netlify.")).toEqual(["deploy target|doc sit| = netlify"]);
    expect(read("We deploy billing-api to AWS.")).toEqual(["deploy target|api bill| = aws"]);
    expect(read("As of 2026-03-01, billing-api deploys to Fly.io in production.")).toEqual([
      "deploy target|api bill|production = fly.io",
    ]);
    expect(read("Jordan's team deploys the web app to staging on Tuesdays.")).toEqual([]);
  });

  it("version: what an owner runs, never a release note", () => {
    expect(read("invoice-worker runs on Node 20.")).toEqual(["node.js version|invoic worker| = 20"]);
    expect(read("The analytics database is PostgreSQL 16.")).toEqual([
      "postgresql version|analyt databas| = 16",
    ]);
    expect(read("The staging Redis runs version 7.2.")).toEqual(["redis version||staging = 7.2"]);
    expect(read("lucid-memory 1.2.3 fixed the FTS crash on empty queries.")).toEqual([]);
    expect(read("billing-api runs on Node 18 and was upgraded to Node 20.")).toEqual([]);
  });

  it("preference: explicit attributes, 'of choice', 'uses X as', and tools of a known kind", () => {
    expect(read("User's preferred editor is VS Code.")).toEqual(["preferred editor|user| = vs code"]);
    expect(read("Li Wei's editor of choice is Neovim.")).toEqual(["preferred editor|li wei| = neovim"]);
    expect(read("User uses zsh as the default shell.")).toEqual(["preferred shell|user| = zsh"]);
    expect(read("I prefer Vim.")).toEqual(["preferred editor|user| = vim"]);
    expect(read("Maria's favourite colour is green.")).toEqual(["favourite colour|maria| = green"]);
    expect(read("The team's default branch is trunk.")).toEqual(["default branch|team| = trunk"]);
    // No kind of tool: preferences in general are not exclusive.
    expect(read("Li Wei prefers window seats on flights.")).toEqual([]);
  });

  it("role: single-holder roles in every phrasing; many-holder relations never", () => {
    expect(read("Sam's manager is Priya Raman.")).toEqual(["manager|sam| = priya raman"]);
    expect(read("Beatriz Lopes is Maria's manager.")).toEqual(["manager|maria| = beatriz lopes"]);
    expect(read("Priya Raman is the tech lead of the payments team.")).toEqual([
      "lead|payment team| = priya raman",
    ]);
    expect(read("Sam reports to Tom Becker.")).toEqual(["manager|sam| = tom becker"]);
    expect(read("Marcus Lee manages the payments team.")).toEqual(["manager|payment team| = marcus lee"]);
    expect(read("ledger-export is owned by the data team.")).toEqual(["owner|export ledger| = data team"]);
    expect(read("Li Wei is married to Chen Jie.")).toEqual(["spouse|li wei| = chen jie"]);
    expect(read("Maria's sister is Ana.")).toEqual([]);
    expect(read("Maria owns a Toyota.")).toEqual([]);
  });

  it("residence, employer and occupation", () => {
    expect(read("Maria moved to Lisbon in January 2026.")).toEqual(["city of residence|maria| = lisbon"]);
    expect(read("Maria's sister Ana lives in Porto.")).toEqual(["city of residence|ana| = porto"]);
    expect(read("Li Wei's dotfiles live in github.com/liwei/dotfiles.")).toEqual([]);
    expect(read("User works at Shopify since January 2026.")).toEqual(["employer|user| = shopify"]);
    expect(read("Maria works as a nurse at Santa Maria Hospital.")).toEqual(["occupation|maria| = nurse"]);
    expect(read("Jordan's partner Alex is a physiotherapist.")).toEqual([
      "occupation|alex| = physiotherapist",
    ]);
  });

  it("diet: labels and what is eaten", () => {
    expect(read("Maria's husband Jonas is vegetarian.")).toEqual(["diet|jonas| = vegetarian"]);
    expect(read("Jonas eats steak every Friday.")).toEqual(["diet|jonas| = meat"]);
    expect(read("Jonas eats pasta every Friday.")).toEqual([]);
    expect(valuesConflict("diet", "vegetarian", "meat")).toBe(true);
    expect(valuesConflict("diet", "pescatarian", "fish")).toBe(false);
    expect(valuesConflict("diet", "vegan", "vegetarian")).toBe(false);
  });

  it("plain attributes", () => {
    expect(read("The primary database region is eu-west-1.")).toEqual(["region|databas primar| = eu-west-1"]);
    expect(read("User's time zone is CET.")).toEqual(["time zone|user| = cet"]);
  });

  it("reads no claim from a negated statement", () => {
    expect(read("User does not use Vim.")).toEqual([]);
    expect(read("Maria no longer lives in Berlin.")).toEqual([]);
  });

  it("keeps qualifiers, so differently qualified claims can both hold", () => {
    const [legacy] = extractClaims("Jordan uses Node 18 for the legacy-portal project.");
    expect(legacy?.qualifier).toEqual(["legac", "portal", "project"]);
    const [dated] = extractClaims("User works at Shopify since January 2026.");
    expect(dated?.qualifier).toEqual([]);
  });

  it("compares values by their words: a value and a refinement of it agree", () => {
    expect(valuesConflict("deploy-target", "aws", "aws ecs")).toBe(false);
    expect(valuesConflict("deploy-target", "aws", "fly.io")).toBe(true);
    expect(valuesConflict("role", "priya", "priya raman")).toBe(false);
  });
});
