// MCP Apps in the manifest: a tool's `_meta.ui.resourceUri` must name a declared ui:// resource,
// a ui:// resource must carry the text/html;profile=mcp-app profile, `visibility` is "model" and/or
// "app", a resource's `file` must exist, be UTF-8 and at most 4 MiB; each error names its pointer.
// A valid one declares the extension, keeps `file` out of what is published and embeds the file.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadManifest } from "../../generator/load/manifest.js";
import { InputError, type Diagnostic } from "../../generator/load/diagnostics.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { listsView } from "../../generator/emit/manifest/lists.js";
import { withTempDir, writeFiles } from "./helpers.js";

const PROFILE = "text/html;profile=mcp-app";
const VIEW = "<!doctype html><html><body>view</body></html>";

function manifest(dir: string, body: object): string {
  const path = join(dir, "mcp.manifest.json");
  writeFileSync(path, JSON.stringify({ name: "apps", version: "1.0.0", ...body }, null, 2));
  return path;
}

function diagnostics(path: string): Diagnostic[] {
  try {
    return loadManifest(path, "mcp.manifest.json").diagnostics;
  } catch (e) {
    if (e instanceof InputError) return e.diagnostics;
    throw e;
  }
}

const tool = (name: string, meta: object) => ({ name, inputSchema: { type: "object" }, _meta: meta });

test("apps: a linked view from a file declares the extension; `file` is not published, its content is embedded", () => {
  withTempDir((dir) => {
    writeFiles(dir, { "ui/view.html": VIEW });
    const loaded = loadManifest(
      manifest(dir, {
        tools: [tool("show", { ui: { resourceUri: "ui://a/view" } })],
        resources: [
          {
            uri: "ui://a/view",
            name: "view",
            mimeType: PROFILE,
            file: "ui/view.html",
            _meta: { ui: { prefersBorder: false } },
          },
        ],
      }),
    );
    const model = buildServerModel(loaded);
    assert.equal(model.capabilities.extensions, { "io.modelcontextprotocol/ui": {} });
    assert.is(model.resources[0]!.file, VIEW);
    assert.equal(model.resources[0]!.definition, {
      uri: "ui://a/view",
      name: "view",
      mimeType: PROFILE,
      _meta: { ui: { prefersBorder: false } },
    });
    // declared in legacy revisions too (their ServerCapabilities admit it), as in 2026-07-28
    const published = listsView(model).published;
    assert.is(published.split('"io.modelcontextprotocol/ui": {}').length - 1, model.revisions.length);
  });
});

test("apps: each broken link, profile, visibility and file is an error naming its pointer", () => {
  withTempDir((dir) => {
    writeFiles(dir, { "plain.html": "just text", "latin1.html": "" });
    writeFileSync(join(dir, "latin1.html"), Buffer.from([0x3c, 0x68, 0xe9, 0x3e]));
    writeFileSync(join(dir, "big.html"), Buffer.alloc(4 * 1024 * 1024 + 1, 0x20));
    const path = manifest(dir, {
      tools: [
        tool("missing_view", { ui: { resourceUri: "ui://a/nowhere" } }),
        tool("flat_key", { "ui/resourceUri": "ui://a/other" }),
        tool("bad_visibility", { ui: { resourceUri: "ui://a/view", visibility: ["model", "everyone"] } }),
      ],
      resources: [
        { uri: "ui://a/view", name: "view", mimeType: "text/html", file: "plain.html" },
        { uri: "https://example.com/app", name: "web", mimeType: PROFILE },
        { uri: "ui://a/latin1", name: "latin1", mimeType: PROFILE, file: "latin1.html" },
        { uri: "ui://a/big", name: "big", mimeType: PROFILE, file: "big.html" },
        { uri: "ui://a/absent", name: "absent", mimeType: PROFILE, file: "absent.html" },
      ],
    });
    const errors = diagnostics(path)
      .filter((d) => d.severity === "error")
      .map((d) => `${d.pointer}: ${d.message}`);
    assert.equal(
      errors.sort(),
      [
        '/resources/0/mimeType: a ui:// resource is an MCP App view: its mimeType must be "text/html;profile=mcp-app", got "text/html"',
        '/resources/1/uri: an MCP App view (mimeType "text/html;profile=mcp-app") must have a ui:// URI',
        '/resources/2/file: "latin1.html" is not UTF-8 text',
        `/resources/3/file: "big.html" has ${4 * 1024 * 1024 + 1} bytes; a resource file may have at most ${4 * 1024 * 1024} (it is embedded in the generated server)`,
        '/resources/4/file: file "absent.html" not found (relative to the manifest)',
        '/tools/0/_meta/ui/resourceUri: tool "missing_view" links "ui://a/nowhere", which is not a ui:// resource of this manifest (declared: "ui://a/view", "ui://a/latin1", "ui://a/big", "ui://a/absent")',
        '/tools/1/_meta/ui~1resourceUri: tool "flat_key" links "ui://a/other", which is not a ui:// resource of this manifest (declared: "ui://a/view", "ui://a/latin1", "ui://a/big", "ui://a/absent")',
        '/tools/2/_meta/ui/visibility: expected an array of "model" and/or "app"',
      ].sort(),
    );
  });
});

test("apps: a view file without <html> is a warning, not an error", () => {
  withTempDir((dir) => {
    writeFiles(dir, { "frag.html": "<div>fragment</div>" });
    const d = diagnostics(
      manifest(dir, { resources: [{ uri: "ui://a/frag", name: "frag", mimeType: PROFILE, file: "frag.html" }] }),
    );
    assert.equal(
      d.map((x) => [x.severity, x.pointer, x.message]),
      [
        [
          "warning",
          "/resources/0/file",
          '"frag.html" has no <html> element; an MCP App view must be an HTML5 document',
        ],
      ],
    );
  });
});

test.run();
