// The dice example's view rendered by a real browser: the example server runs as its own process
// over Streamable HTTP and serves the dev host page (examples/apps/host/index.html) from the same
// origin; headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core) opens it. The
// host lists the tools, reads the ui:// view, renders it in a sandboxed srcdoc frame and speaks the
// extension's postMessage protocol with it. Asserted from the host's log and the frame's DOM: the
// handshake, the first result shown, "Roll again" proxied through the host to the server,
// refusals, the view's CSP, no console errors. A missing browser fails the test (CI installs the package).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { waitExit } from "./helpers/everything-process.js";

const CHROMIUM = "/usr/bin/chromium";
const serverJs = fileURLToPath(new URL("../../examples/apps/src/server.js", import.meta.url));
const WAIT_MS = 10_000;
const LAUNCH_MS = 45_000;

interface Logged {
  direction: "view→host" | "host→view";
  message: { id?: number; method?: string; params?: any; result?: any; error?: any };
}

function startExample(): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, [serverJs, "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`dice example: ${why}; stderr: ${err.trim() || "(empty)"}`));
    };
    const timer = setTimeout(() => fail(`no "listening on" line within ${WAIT_MS} ms`), WAIT_MS);
    child.once("exit", (code, signal) => fail(`exited early (${code ?? signal})`));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      err += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\/mcp/.exec(err);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({ child, origin: m[1]! });
    });
  });
}

test("headless Chromium: the dev host renders the dice view, hands it the result, proxies its tools/call", async () => {
  assert.ok(
    existsSync(CHROMIUM),
    `${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium); .ci/run does`,
  );
  const profile = mkdtempSync(join(tmpdir(), "mcpgen-chromium-"));
  let example: { child: ChildProcess; origin: string } | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  const consoleErrors: string[] = [];
  try {
    example = await startExample();
    // launchPersistentContext is the way to hand Chromium its own --user-data-dir.
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      // Chromium's own start on a loaded 2-core CI machine took over 10 s once: the launch has its
      // own, longer bound; every wait inside the page keeps WAIT_MS.
      timeout: LAUNCH_MS,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    browser = context.browser() ?? undefined;
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(WAIT_MS);
    page.on("console", (m) => void (m.type() === "error" && consoleErrors.push(m.text())));
    page.on("pageerror", (e) => consoleErrors.push(e.message));
    const closeContext = () => context.close();

    try {
      await page.goto(`${example.origin}/?args=${encodeURIComponent(JSON.stringify({ count: 3, sides: 20 }))}`);
      const view = page.frameLocator("iframe");
      // The first result, shown inside the frame.
      await view
        .locator("#total")
        .filter({ hasText: /^3d20: total \d+$/ })
        .waitFor();
      assert.is(await view.locator("#dice .die").count(), 3);
      assert.is(await page.locator("iframe").getAttribute("sandbox"), "allow-scripts");

      const log = () => page!.evaluate(() => (globalThis as unknown as { hostLog: Logged[] }).hostLog);
      const first = await log();
      const methods = first.map((e) => `${e.direction} ${e.message.method ?? (e.message.result ? "result" : "error")}`);
      assert.equal(methods.slice(0, 5), [
        "view→host ui/initialize",
        "host→view result",
        "view→host ui/notifications/initialized",
        "host→view ui/notifications/tool-input",
        "host→view ui/notifications/tool-result",
      ]);
      assert.equal(first[0]!.message.params.appInfo, { name: "dice-roller", version: "1.0.0" });
      assert.is(first[1]!.message.result.protocolVersion, "2026-01-26");
      assert.equal(first[3]!.message.params, { arguments: { count: 3, sides: 20 } });
      const shown = first[4]!.message.params.structuredContent as { rolls: number[]; total: number };
      assert.equal(await view.locator("#dice .die").allTextContents(), shown.rolls.map(String));
      assert.is(await view.locator("#total").textContent(), `3d20: total ${shown.total}`);
      // The size the view reported was applied to the frame.
      const size = first.find((e) => e.message.method === "ui/notifications/size-changed");
      assert.ok(size, "the view reported its size");
      assert.is(
        await page.locator("iframe").evaluate((f) => (f as unknown as { style: { height: string } }).style.height),
        `${Math.ceil(size.message.params.height)}px`,
      );

      // "Roll again": the view's tools/call goes through the host to the server and back.
      await view.locator("#again").click();
      const deadline = Date.now() + WAIT_MS;
      let after = await log();
      while (
        !after.some(
          (e) => e.direction === "host→view" && e.message.id !== undefined && e.message.result?.structuredContent,
        ) &&
        Date.now() < deadline
      ) {
        await page.waitForTimeout(50);
        after = await log();
      }
      const call = after.find((e) => e.direction === "view→host" && e.message.method === "tools/call");
      assert.ok(call, "the view asked the host for tools/call");
      assert.equal(call.message.params, { name: "roll_dice", arguments: { count: 3, sides: 20 } });
      const answer = after.find(
        (e) => e.direction === "host→view" && e.message.id === call.message.id && e.message.result,
      );
      assert.ok(answer, "the host answered the view's tools/call");
      const again = answer.message.result.structuredContent as { rolls: number[]; total: number };
      assert.is(again.rolls.length, 3);
      await view
        .locator("#total")
        .filter({ hasText: `3d20: total ${again.total}` })
        .waitFor();
      await view.locator("#again:enabled").waitFor();
      assert.equal(await view.locator("#dice .die").allTextContents(), again.rolls.map(String));
      assert.is(await view.locator("#error").textContent(), "");
      assert.is(await page.locator("#status").textContent(), "Rendered roll_dice");

      // From inside the frame: after garbage, a tool the server does not list and a method the
      // host does not offer are refused with JSON-RPC errors, not proxied.
      const inFrame = page.frames().find((f) => f !== page!.mainFrame())!;
      const refused = await inFrame.evaluate(
        (ms) =>
          new Promise<unknown[]>((resolve) => {
            const w = globalThis as unknown as {
              parent: { postMessage(m: unknown, o: string): void };
              addEventListener(t: string, fn: (e: { data: any }) => void): void;
            };
            const got: unknown[] = [];
            const timer = setTimeout(() => resolve(got), ms);
            w.addEventListener("message", (e) => {
              if (e.data?.id !== 901 && e.data?.id !== 902) return;
              got.push(e.data);
              if (got.length < 2) return;
              clearTimeout(timer);
              resolve(got);
            });
            // Garbage first: not JSON-RPC, a wrong method type, a cyclic value (structured clone
            // carries it; JSON does not). The host ignores or logs them and keeps answering.
            const cyclic: Record<string, unknown> = { jsonrpc: "2.0", method: "ui/notifications/cyclic" };
            cyclic.params = cyclic;
            for (const junk of [
              "garbage",
              null,
              42,
              { jsonrpc: "2.0", method: 5 },
              { jsonrpc: "1.0", id: 1, method: "tools/call" },
              cyclic,
            ]) {
              w.parent.postMessage(junk, "*");
            }
            w.parent.postMessage(
              { jsonrpc: "2.0", id: 901, method: "tools/call", params: { name: "not_a_tool", arguments: {} } },
              "*",
            );
            w.parent.postMessage({ jsonrpc: "2.0", id: 902, method: "ui/no-such-method", params: {} }, "*");
          }),
        WAIT_MS,
      );
      assert.equal((refused as { id: number; error: { code: number } }[]).map((m) => [m.id, m.error.code]).sort(), [
        [901, -32602],
        [902, -32601],
      ]);
      // The cyclic message was logged as what it is, without breaking the listener.
      assert.is(await page.locator("#log li").filter({ hasText: "view→host (not JSON" }).count(), 1);
      assert.equal(consoleErrors, []);

      // The view runs under the CSP the host built from its _meta.ui.csp (none declared: no
      // connections): its own fetch of the endpoint is stopped by connect-src before it is sent.
      assert.match(
        (await page.locator("iframe").getAttribute("srcdoc")) ?? "",
        /<meta http-equiv="Content-Security-Policy" content="default-src 'none';[^"]*connect-src 'none'/,
      );
      const blocked = await inFrame.evaluate(
        ({ url, ms }) =>
          new Promise<string>((resolve) => {
            const timer = setTimeout(() => resolve("no violation reported"), ms);
            const d = (
              globalThis as unknown as {
                document: { addEventListener(t: string, fn: (e: { effectiveDirective: string }) => void): void };
              }
            ).document;
            d.addEventListener("securitypolicyviolation", (e) => {
              clearTimeout(timer);
              resolve(e.effectiveDirective);
            });
            fetch(url, { method: "POST" }).catch(() => undefined);
          }),
        { url: `${example.origin}/mcp`, ms: WAIT_MS },
      );
      assert.is(blocked, "connect-src");
    } catch (e) {
      const shot = join(mkdtempSync(join(tmpdir(), "mcpgen-apps-failure-")), "host.png");
      await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
      console.error(`apps-chromium: screenshot ${shot}; console errors: ${JSON.stringify(consoleErrors)}`);
      throw e;
    } finally {
      await closeContext();
    }
  } finally {
    if (browser?.isConnected()) await browser.close().catch(() => undefined);
    if (example) {
      example.child.kill("SIGTERM");
      await waitExit(example.child, 5000);
    }
    rmSync(profile, { recursive: true, force: true });
  }
});

test.run();
