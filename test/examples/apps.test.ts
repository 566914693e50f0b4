// MCP Apps end to end on the dice example (examples/apps): the server declares the extension, its
// tool names its view in `_meta.ui.resourceUri`, the view is served as text/html;profile=mcp-app
// with its `_meta.ui`, and the generated client's `tools.rollDice.ui()` reads it; both eras, over
// Streamable HTTP. The view's script also runs here in a node:vm with a minimal DOM and a host that
// speaks the extension's postMessage protocol (ui/initialize, the tool input and result
// notifications, tools/call proxied to the real server): what is rendered is read back from that
// DOM. Fast and browser-free; the real rendering, by Chromium through the dev host page, is
// apps-chromium.test.ts.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { connectHttp, createStreamableHttpServer } from "@mcpgen/runtime/http";
import { handlers } from "../../examples/apps/src/handlers.js";
import { createDiceServer } from "../../examples/apps/src/mcp/server.js";
import { createDiceClient, type DiceClient } from "../../examples/apps/src/mcp/client.js";

const VIEW = "ui://dice/roller";
const html = readFileSync(new URL("../../../examples/apps/ui/roller.html", import.meta.url), "utf8");
const server = createDiceServer(handlers);
const http = createStreamableHttpServer({
  port: 0,
  host: "127.0.0.1",
  onsession: async (t) => void (await server.connect(t)),
});
let url: URL;
const opened: DiceClient[] = [];

async function client(era: "modern" | "legacy"): Promise<DiceClient> {
  const c = await createDiceClient(connectHttp(url), { clientInfo: { name: "apps-test", version: "1.0.0" }, era });
  opened.push(c);
  return c;
}

test.before(async () => {
  url = await http.listen();
});

test.after(async () => {
  for (const c of opened) await c.close();
  await server.close();
  await http.close();
});

for (const era of ["modern", "legacy"] as const) {
  test(`${era}: the extension is declared, the tool links its view, the view is listed with its profile`, async () => {
    const c = await client(era);
    assert.is(c.era, era);
    assert.equal((c.serverCapabilities as { extensions?: object }).extensions, { "io.modelcontextprotocol/ui": {} });
    const [tool] = await c.listTools();
    assert.equal(tool!._meta, { ui: { resourceUri: VIEW, visibility: ["model", "app"] } });
    const [resource] = await c.listResources();
    assert.equal(
      [resource!.uri, resource!.mimeType, resource!._meta],
      [VIEW, "text/html;profile=mcp-app", { ui: { prefersBorder: true } }],
    );
  });

  test(`${era}: tools.rollDice.ui() reads the view: the HTML file as served, its profile and settings`, async () => {
    const c = await client(era);
    const view = await c.tools.rollDice.ui();
    assert.equal([view.uri, view.mimeType, view.meta], [VIEW, "text/html;profile=mcp-app", { prefersBorder: true }]);
    assert.is(view.html, html);
    const rolled = await c.tools.rollDice({ count: 3, sides: 6 });
    assert.is(rolled.structured?.rolls.length, 3);
  });
}

/** A DOM element as much as the view uses. */
class Element {
  private text = "";
  className = "";
  disabled = false;
  readonly children: Element[] = [];
  private readonly listeners: Record<string, ((this: Element) => void)[]> = {};
  appendChild(child: Element): void {
    this.children.push(child);
  }
  addEventListener(type: string, fn: (this: Element) => void): void {
    (this.listeners[type] ??= []).push(fn);
  }
  click(): void {
    for (const fn of this.listeners.click ?? []) fn.call(this);
  }
  get textContent(): string {
    return this.text;
  }
  /** As in a DOM: setting the text replaces the children. */
  set textContent(v: string) {
    this.text = v;
    this.children.length = 0;
  }
}

test("the view renders the host's tool result and rolls again through the host (postMessage protocol)", async () => {
  const c = await client("modern");
  const view = await c.tools.rollDice.ui();
  const script = /<script>([\s\S]*)<\/script>/.exec(view.html)![1]!;
  const elements: Record<string, Element> = {};
  for (const id of ["dice", "total", "again", "error"]) elements[id] = new Element();
  const toView: ((e: { source: unknown; data: unknown }) => void)[] = [];
  const fromView: { method?: string; id?: number; params?: any }[] = [];
  const settled: Promise<void>[] = [];
  const host = {
    // What the view posts: answered as a host would (ui/initialize; tools/call proxied to the server).
    postMessage(m: { jsonrpc: string; id?: number; method?: string; params?: any }) {
      fromView.push(m);
      const reply = (result: unknown) =>
        queueMicrotask(() => toView.forEach((fn) => fn({ source: host, data: { jsonrpc: "2.0", id: m.id, result } })));
      if (m.method === "ui/initialize")
        reply({
          protocolVersion: "2026-01-26",
          hostInfo: { name: "test-host", version: "1.0.0" },
          hostCapabilities: { serverTools: {} },
          hostContext: { theme: "dark" },
        });
      else if (m.method === "tools/call") settled.push(c.callTool(m.params.name, m.params.arguments).then(reply));
    },
  };
  const documentElement = { style: {} as Record<string, string>, scrollWidth: 200, scrollHeight: 120 };
  const window = {
    parent: host,
    addEventListener: (type: string, fn: (e: { source: unknown; data: unknown }) => void) =>
      type === "message" && toView.push(fn),
  };
  const document = {
    documentElement,
    getElementById: (id: string) => elements[id],
    createElement: () => new Element(),
  };
  runInNewContext(script, { window, document, Promise, Object, Array, String, Error, queueMicrotask });
  const tick = () => new Promise((r) => setImmediate(r));
  await tick();
  assert.equal(
    fromView.map((m) => m.method),
    ["ui/initialize", "ui/notifications/initialized"],
  );
  assert.is(documentElement.style.colorScheme, "dark");
  assert.is(elements.again!.disabled, false);

  // The host shows the model's call: its input, then its result.
  const first = await c.callTool("roll_dice", { count: 2, sides: 20 });
  for (const [method, params] of [
    ["ui/notifications/tool-input", { arguments: { count: 2, sides: 20 } }],
    ["ui/notifications/tool-result", first],
  ] as const) {
    toView.forEach((fn) => fn({ source: host, data: { jsonrpc: "2.0", method, params } }));
  }
  const rolls = (first.structuredContent as { rolls: number[]; total: number }).rolls;
  assert.equal(
    elements.dice!.children.map((d) => [d.className, d.textContent]),
    rolls.map((n) => ["die", String(n)]),
  );
  assert.is(elements.total!.textContent, `2d20: total ${(first.structuredContent as { total: number }).total}`);
  assert.ok(fromView.some((m) => m.method === "ui/notifications/size-changed"));

  // "Roll again": the view asks the host for tools/call with the same arguments and renders the answer.
  elements.again!.click();
  assert.is(elements.again!.disabled, true);
  for (let i = 0; i < 50 && settled.length === 0; i++) await tick();
  await Promise.all(settled);
  for (let i = 0; i < 5; i++) await tick();
  const call = fromView.find((m) => m.method === "tools/call")!;
  // Made in the vm's realm: compared as JSON.
  assert.equal(JSON.parse(JSON.stringify(call.params)), { name: "roll_dice", arguments: { count: 2, sides: 20 } });
  assert.is(elements.dice!.children.length, 2);
  assert.is(elements.again!.disabled, false);
  assert.match(elements.total!.textContent, /^2d20: total \d+$/);
  // Messages from anything but the host are ignored.
  toView.forEach((fn) =>
    fn({
      source: {},
      data: {
        jsonrpc: "2.0",
        method: "ui/notifications/tool-result",
        params: { structuredContent: { rolls: [1], sides: 2, total: 1 } },
      },
    }),
  );
  assert.match(elements.total!.textContent, /^2d20: /);
});

test.run();
