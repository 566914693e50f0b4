/** The outcome of `mcpgen verify`: one line per check, readable or as JSON. */
export interface Check {
  /** What was checked: `protocol/version`, `tools/get_forecast`, `tools/get_forecast example 1`, ... */
  check: string;
  status: "pass" | "fail" | "skip";
  message: string;
}

export interface VerifyReport {
  server: string;
  manifest: string;
  protocolVersion: string | null;
  ok: boolean;
  checks: Check[];
}

export function renderVerify(r: VerifyReport): string {
  const mark = { pass: "ok  ", fail: "FAIL", skip: "skip" } as const;
  const lines = [
    `verify ${r.server} against ${r.manifest}${r.protocolVersion ? ` (revision ${r.protocolVersion})` : ""}`,
  ];
  for (const c of r.checks) lines.push(`${mark[c.status]} ${c.check}: ${c.message}`);
  const failed = r.checks.filter((c) => c.status === "fail").length;
  lines.push(
    failed ? `${failed} check(s) failed` : `all ${r.checks.filter((c) => c.status === "pass").length} checks passed`,
  );
  return lines.join("\n") + "\n";
}
