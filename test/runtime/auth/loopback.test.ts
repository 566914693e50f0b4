// The loopback redirect listener a command-line client uses as its user agent.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { listenForRedirect } from "@mcpgen/runtime/auth";

test("listens on 127.0.0.1, hands back the redirect URL, answers the browser, 404s anything else", async () => {
  const shown: URL[] = [];
  const r = await listenForRedirect({ open: (u) => void shown.push(u), path: "/cb" });
  try {
    assert.match(r.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/cb$/);
    assert.is((await fetch(`${r.redirectUri}?code=early`)).status, 404, "nothing is waiting yet");
    const got = r.authorize(new URL("https://as.example/authorize?x=1"), AbortSignal.timeout(5000));
    const page = await fetch(`${r.redirectUri}?code=abc&state=s1`);
    assert.is(page.status, 200);
    assert.match(await page.text(), /Authorization complete/);
    const url = await got;
    assert.is(url.searchParams.get("code"), "abc");
    assert.is(url.searchParams.get("state"), "s1");
    assert.is(shown[0]!.href, "https://as.example/authorize?x=1");
    assert.is((await fetch(new URL("/other", r.redirectUri))).status, 404);
  } finally {
    await r.close();
  }
});

test("gives up when the user never comes back", async () => {
  const r = await listenForRedirect({ open: () => {} });
  try {
    let err: Error | undefined;
    await r.authorize(new URL("https://as.example/authorize"), AbortSignal.timeout(50)).catch((e: Error) => (err = e));
    assert.match(err!.message, /did not complete in time/);
  } finally {
    await r.close();
  }
});

test.run();
