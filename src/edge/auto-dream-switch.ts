/**
 * `LUCID_DREAM=off|false|0|no` switches automatic dreaming off (`--if-due`, the MCP server's
 * background runs). Read at the edges only; the library takes it as `enabled: false`.
 *
 * @example
 * autoDreamEnabled({ LUCID_DREAM: "off" }); // false
 */
export function autoDreamEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.LUCID_DREAM?.trim().toLowerCase();
  return !(value === "off" || value === "false" || value === "0" || value === "no");
}
