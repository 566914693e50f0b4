// The Skills extension end to end: the everything example (two skills, one from a folder, one
// inline under a prefix) as a real process over Streamable HTTP, asked by the generated
// EverythingClient in both eras (`client.skills`) and by raw requests: the declaration, skills/list
// and skills/get entries, digests and sizes that match the bytes resources/read serves, SKILL.md in
// resources/list, directory reads, -32602 for an unknown skill or a non-directory, and a client that
// refuses content that does not match its entry.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { McpError } from "@mcpgen/runtime";
import { connectHttp } from "@mcpgen/runtime/http";
import { SkillVerificationError, type Skill } from "@mcpgen/runtime/skills/client";
import { createEverythingClient, type EverythingClient } from "../../examples/everything/src/mcp/client.js";
import { startEverything, type EverythingProcess } from "./helpers/everything-process.js";

let server: EverythingProcess;
const opened: EverythingClient[] = [];
const root = new URL("../../../examples/everything/skills/", import.meta.url);

async function client(era: "modern" | "legacy"): Promise<EverythingClient> {
  const c = await createEverythingClient(connectHttp(server.url), {
    clientInfo: { name: "skills-client", version: "1.0.0" },
    era,
  });
  opened.push(c);
  return c;
}

async function refused(run: () => Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await run();
  } catch (e) {
    assert.instance(e, SkillVerificationError);
    assert.match((e as Error).message, message);
    return;
  }
  assert.unreachable(`accepted; expected ${message}`);
}

const sha = (b: Uint8Array | string) => `sha256:${createHash("sha256").update(b).digest("hex")}`;

test.before(async () => {
  server = await startEverything();
});

test.after(async () => {
  for (const c of opened) await c.close();
  assert.equal(await server.stop(), { code: 0, signal: null }, `stderr: ${server.stderr()}`);
});

for (const era of ["modern", "legacy"] as const) {
  test(`${era}: the extension is declared with directoryRead, beside the resources capability`, async () => {
    const c = await client(era);
    assert.is(c.era, era);
    const caps = c.serverCapabilities as { extensions?: Record<string, unknown>; resources?: unknown };
    assert.equal(caps.extensions?.["io.modelcontextprotocol/skills"], { directoryRead: true });
    assert.ok(caps.resources);
    assert.ok(c.skills.declared);
  });

  test(`${era}: skills/list lists both skills with every file, digests and sizes of the bytes on disk`, async () => {
    const c = await client(era);
    const skills = await c.skills.list();
    assert.equal(
      skills.map((s) => s.uri),
      ["skill://pdf-processing/SKILL.md", "skill://acme/billing/refunds/SKILL.md"],
    );
    const pdf = skills[0]!;
    assert.equal(pdf.frontmatter, {
      name: "pdf-processing",
      description: "Extract text and tables from PDF documents, fill PDF forms, and assemble invoices from templates.",
      license: "MIT",
      metadata: { version: "1.2", owner: "everything-example" },
    });
    const files = ["SKILL.md", "references/FORMS.md", "templates/invoice.md", "templates/regional/eu-invoice.md"];
    assert.equal(
      pdf.resources === "dynamic" ? [] : pdf.resources.map((r) => r.uri),
      files.map((f) => `skill://pdf-processing/${f}`),
    );
    for (const f of files) {
      const bytes = readFileSync(new URL(`pdf-processing/${f}`, root));
      const listed = (pdf.resources as Exclude<Skill["resources"], "dynamic">).find(
        (r) => r.uri === `skill://pdf-processing/${f}`,
      )!;
      assert.equal([listed.digest, listed.size], [sha(bytes), bytes.length], f);
    }
  });

  test(`${era}: skills/get answers a listed skill's entry and -32602 for an unknown one`, async () => {
    const c = await client(era);
    const listed = await c.skills.list();
    assert.equal(await c.skills.get("skill://acme/billing/refunds/SKILL.md"), listed[1]);
    try {
      await c.skills.get("skill://nope/SKILL.md");
      assert.unreachable("an unknown skill was answered");
    } catch (e) {
      assert.instance(e, McpError);
      assert.is((e as McpError).code, -32602);
    }
  });

  test(`${era}: every listed file reads back verified; SKILL.md is listed as a resource`, async () => {
    const c = await client(era);
    for (const skill of await c.skills.list()) {
      for (const r of skill.resources === "dynamic" ? [] : skill.resources) {
        const file = await c.skills.read(skill, r.uri);
        assert.ok(file.verified, r.uri);
        assert.equal([sha(file.bytes), file.bytes.length], [r.digest, r.size]);
      }
    }
    const md = await c.skills.read((await c.skills.list())[0]!);
    assert.match(md.text, /^---\nname: pdf-processing\n/);
    assert.is(md.mimeType, "text/markdown");
    const resources = await c.listResources();
    const entry = resources.find((r) => r.uri === "skill://acme/billing/refunds/SKILL.md");
    assert.equal(entry && [entry.name, entry.description, entry.mimeType], [
      "refunds",
      "Process a customer's refund request according to the billing policy.",
      "text/markdown",
    ]);
  });

  test(`${era}: a directory read lists direct children, subdirectories as inode/directory`, async () => {
    const c = await client(era);
    const top = await c.skills.readDirectory("skill://pdf-processing");
    assert.equal(top.map((r) => [r.uri, r.mimeType]).sort(), [
      ["skill://pdf-processing/SKILL.md", "text/markdown"],
      ["skill://pdf-processing/references", "inode/directory"],
      ["skill://pdf-processing/templates", "inode/directory"],
    ]);
    const templates = await c.skills.readDirectory("skill://pdf-processing/templates");
    assert.equal(templates.map((r) => r.uri).sort(), [
      "skill://pdf-processing/templates/invoice.md",
      "skill://pdf-processing/templates/regional",
    ]);
    for (const uri of ["skill://pdf-processing/SKILL.md", "skill://nowhere"]) {
      try {
        await c.skills.readDirectory(uri);
        assert.unreachable(`${uri} read as a directory`);
      } catch (e) {
        assert.is((e as McpError).code, -32602, uri);
      }
    }
  });

  test(`${era}: the client refuses content that does not match the entry, and files the entry does not list`, async () => {
    const c = await client(era);
    const [pdf] = await c.skills.list();
    const forged: Skill = {
      ...pdf!,
      resources: (pdf!.resources as Exclude<Skill["resources"], "dynamic">).map((r) =>
        r.uri.endsWith("FORMS.md") ? { ...r, digest: sha("something else") } : r,
      ),
    };
    await refused(() => c.skills.read(forged, "skill://pdf-processing/references/FORMS.md"), /digest/);
    const resized: Skill = {
      ...pdf!,
      resources: (pdf!.resources as Exclude<Skill["resources"], "dynamic">).map((r) => ({ ...r, size: r.size + 1 })),
    };
    await refused(() => c.skills.read(resized), /bytes read/);
    await refused(() => c.skills.read(pdf!, "skill://acme/billing/refunds/SKILL.md"), /not a file of skill/);
  });
}

test("modern: skills/list and skills/get carry the 2026-07-28 caching hints; a bad cursor is -32602", async () => {
  const post = async (method: string, params: object) => {
    const res = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method,
        params: {
          ...params,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
    });
    return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number } };
  };
  for (const [method, params] of [
    ["skills/list", {}],
    ["skills/get", { uri: "skill://pdf-processing/SKILL.md" }],
  ] as const) {
    const r = (await post(method, params)).result!;
    assert.equal([r.resultType, typeof r.ttlMs, r.cacheScope], ["complete", "number", "public"], method);
  }
  assert.is((await post("skills/list", { cursor: "not-a-cursor" })).error?.code, -32602);
  assert.is((await post("skills/get", {})).error?.code, -32602);
});

test.run();
