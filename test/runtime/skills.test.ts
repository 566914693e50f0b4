// The Skills extension in the runtime, over the in-memory transport in both eras: an McpServer
// whose definition serves three skills one per page (skills/list pagination; SKILL.md entries after
// the definition's own resources in resources/list; directory reads paginated too), and the
// client's SkillsClient following the pages. Then a server that lies (a forged digest, an entry
// over the extension's limits, a URI that does not end in its name) and the client refusing it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fc from "fast-check";
import { createHash } from "node:crypto";
import {
  connectMcpClient,
  createMcpServer,
  createMemoryTransportPair,
  McpError,
  type McpClient,
  type McpDefinition,
} from "@mcpgen/runtime";
import { serveSkills, type SkillSource } from "@mcpgen/runtime/skills/server";
import { SkillsClient, SkillVerificationError, withSkillMethods } from "@mcpgen/runtime/skills/client";
import { dual } from "./helpers/binding.js";

const EXT = "io.modelcontextprotocol/skills";
const file = (path: string, text: string) => ({
  path,
  mimeType: "text/markdown",
  text,
  digest: `sha256:${createHash("sha256").update(text).digest("hex")}`,
  size: Buffer.byteLength(text),
});
const skill = (name: string, extra: ReturnType<typeof file>[] = []): SkillSource => {
  const md = `---\nname: ${name}\ndescription: The ${name} skill\n---\n`;
  return {
    path: name,
    frontmatter: { name, description: `The ${name} skill` },
    files: [file("SKILL.md", md), ...extra],
  };
};

function definition(sources: SkillSource[]): McpDefinition {
  const lists = {
    serverInfo: { name: "skills", version: "1" },
    capabilities: { resources: {}, extensions: { [EXT]: { directoryRead: true } } },
    tools: [],
    prompts: [],
    resourceTemplates: [],
    resources: [],
  };
  return {
    revisions: ["2026-07-28", "2025-11-25"],
    pageSize: 1,
    published: { "2026-07-28": lists, "2025-11-25": lists },
    toolValidators: {},
    members: { tools: {}, prompts: {}, resources: {}, resourceTemplates: {} },
    skills: async () => serveSkills(sources),
  };
}

const sources = [
  skill("alpha", [file("a/one.md", "1"), file("a/two.md", "2"), file("b.md", "b")]),
  skill("beta"),
  skill("gamma"),
];
const server = createMcpServer(definition(sources), {}, { bindings: dual });

async function connect(era: "modern" | "legacy"): Promise<{ client: McpClient; skills: SkillsClient }> {
  const [ct, st] = createMemoryTransportPair();
  await server.connect(st);
  const client = await connectMcpClient(ct, {
    bindings: dual.map(withSkillMethods),
    clientInfo: { name: "t", version: "1" },
    era,
  });
  return { client, skills: new SkillsClient(client) };
}

test.after(async () => {
  await server.close();
});

for (const era of ["modern", "legacy"] as const) {
  test(`${era}: skills/list one per page, followed to the end; SKILL.md resources listed`, async () => {
    const { client, skills } = await connect(era);
    try {
      assert.is(client.era, era);
      const first = (await client.session.request("skills/list", {})) as { skills: unknown[]; nextCursor?: string };
      assert.is(first.skills.length, 1);
      assert.type(first.nextCursor, "string");
      assert.equal(
        (await skills.list()).map((s) => s.uri),
        ["skill://alpha/SKILL.md", "skill://beta/SKILL.md", "skill://gamma/SKILL.md"],
      );
      assert.equal(
        (await client.listResources()).map((r) => [r.uri, r.name]),
        [
          ["skill://alpha/SKILL.md", "alpha"],
          ["skill://beta/SKILL.md", "beta"],
          ["skill://gamma/SKILL.md", "gamma"],
        ],
      );
      assert.equal(
        (await skills.readDirectory("skill://alpha")).map((r) => [r.uri, r.mimeType]),
        [
          ["skill://alpha/SKILL.md", "text/markdown"],
          ["skill://alpha/a", "inode/directory"],
          ["skill://alpha/b.md", "text/markdown"],
        ],
      );
      assert.equal(
        (await skills.readDirectory("skill://alpha/a")).map((r) => r.uri),
        ["skill://alpha/a/one.md", "skill://alpha/a/two.md"],
      );
      const alpha = await skills.get("skill://alpha/SKILL.md");
      assert.is((await skills.read(alpha, "skill://alpha/a/two.md")).text, "2");
    } finally {
      await client.close();
    }
  });

  test(`${era}: unknown skills, non-directories and bad cursors are -32602; a read of no skill file is not found`, async () => {
    const { client, skills } = await connect(era);
    try {
      for (const run of [
        () => skills.get("skill://delta/SKILL.md"),
        () => skills.readDirectory("skill://alpha/b.md"),
        () => client.session.request("skills/list", { cursor: "bogus" }),
        () => client.session.request("skills/get", { uri: 42 }),
      ]) {
        try {
          await run();
          assert.unreachable("answered");
        } catch (e) {
          assert.is((e as McpError).code, -32602);
        }
      }
      try {
        await client.readResource("skill://alpha/missing.md");
        assert.unreachable("answered");
      } catch (e) {
        assert.is((e as McpError).code, era === "modern" ? -32602 : -32002);
      }
    } finally {
      await client.close();
    }
  });
}

test("garbage params to the extension's methods get -32602 or a result, never a crash, and the connection survives (property)", async () => {
  const { client } = await connect("modern");
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("skills/list", "skills/get", "resources/directory/read"),
        fc.dictionary(
          fc.constantFrom("uri", "cursor", "x"),
          fc.oneof(fc.anything(), fc.constantFrom("skill://alpha", "skill://alpha/SKILL.md", "skill://alpha/a")),
        ),
        async (method, params) => {
          try {
            const r = (await client.session.request(method, params)) as { resultType?: string };
            assert.is(r.resultType, "complete");
          } catch (e) {
            assert.is((e as McpError).code, -32602, `${method} ${JSON.stringify(params)}: ${String(e)}`);
          }
        },
      ),
      { numRuns: 200, seed: 2640 },
    );
    assert.is((await new SkillsClient(client).list()).length, 3);
  } finally {
    await client.close();
  }
});

test("a server that lies: forged content, an entry beyond the limits or with a URI not ending in its name is refused", async () => {
  const forged = skill("forged");
  const lying = createMcpServer(
    definition([
      { ...forged, files: [{ ...forged.files[0]!, text: "---\nname: forged\ndescription: Exfiltrate\n---\n" }] },
      {
        ...skill("huge"),
        files: Array.from({ length: 513 }, (_, i) => (i === 0 ? skill("huge").files[0]! : file(`f${i}.md`, "x"))),
      },
      { ...skill("misnamed"), frontmatter: { name: "other", description: "d" } },
    ]),
    {},
    { bindings: dual },
  );
  const [ct, st] = createMemoryTransportPair();
  await lying.connect(st);
  const client = await connectMcpClient(ct, {
    bindings: dual.map(withSkillMethods),
    clientInfo: { name: "t", version: "1" },
    era: "modern",
  });
  const skills = new SkillsClient(client);
  const refused = async (run: () => Promise<unknown>, message: RegExp) => {
    try {
      await run();
      assert.unreachable(`accepted; expected ${message}`);
    } catch (e) {
      assert.instance(e, SkillVerificationError);
      assert.match((e as Error).message, message);
    }
  };
  try {
    const entry = (await client.session.request("skills/get", { uri: "skill://forged/SKILL.md" })) as {
      skill: Parameters<SkillsClient["read"]>[0];
    };
    await refused(() => skills.read(entry.skill), /bytes read|digest/);
    await refused(() => skills.get("skill://huge/SKILL.md"), /513 files, more than the 512/);
    await refused(() => skills.get("skill://misnamed/SKILL.md"), /must end in \/other\/SKILL\.md/);
    await refused(() => skills.list(), /forged|huge|misnamed|513|other/);
  } finally {
    await client.close();
    await lying.close();
  }
});

test("whatever a server answers skills/get and skills/list with, the client returns a checked entry or rejects cleanly (property)", async () => {
  const entry = fc.record(
    {
      uri: fc.oneof(fc.constant("skill://x/SKILL.md"), fc.string()),
      frontmatter: fc.oneof(fc.record({ name: fc.constantFrom("x", "y"), description: fc.string() }), fc.anything()),
      resources: fc.oneof(
        fc.constant("dynamic"),
        fc.array(
          fc.record(
            {
              uri: fc.oneof(fc.constant("skill://x/SKILL.md"), fc.constant("skill://x/a.md"), fc.string()),
              digest: fc.oneof(fc.constant(`sha256:${"0".repeat(64)}`), fc.string()),
              size: fc.oneof(fc.nat(), fc.double(), fc.constant(-1)),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 4 },
        ),
        fc.anything(),
      ),
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(fc.oneof(entry, fc.anything()), fc.anything(), async (skill, list) => {
      const stub = {
        serverCapabilities: { extensions: { [EXT]: {} } },
        session: { request: async (method: string) => (method === "skills/get" ? { skill } : list) },
      } as unknown as McpClient;
      const client = new SkillsClient(stub);
      for (const run of [() => client.get("skill://x/SKILL.md"), () => client.list()]) {
        try {
          const got = await run();
          for (const e of Array.isArray(got) ? got : [got]) {
            assert.ok(e.uri.endsWith(`/${e.frontmatter.name}/SKILL.md`));
            if (e.resources !== "dynamic")
              assert.ok(e.resources.some((r) => r.uri === e.uri) && e.resources.length <= 512);
          }
        } catch (e) {
          assert.ok(e instanceof SkillVerificationError || e instanceof McpError, String(e));
        }
      }
    }),
    { numRuns: 300, seed: 2640 },
  );
});

test("a client refuses to ask a server that does not declare the extension", async () => {
  const plain = createMcpServer(
    {
      ...definition([]),
      skills: undefined,
      published: {
        "2026-07-28": {
          serverInfo: { name: "p", version: "1" },
          capabilities: {},
          tools: [],
          prompts: [],
          resources: [],
          resourceTemplates: [],
        },
      },
      revisions: ["2026-07-28"],
    },
    {},
    { bindings: dual },
  );
  const [ct, st] = createMemoryTransportPair();
  await plain.connect(st);
  const client = await connectMcpClient(ct, {
    bindings: dual.map(withSkillMethods),
    clientInfo: { name: "t", version: "1" },
    era: "modern",
  });
  const skills = new SkillsClient(client);
  try {
    assert.is(skills.declared, false);
    for (const run of [
      () => skills.list(),
      () => skills.get("skill://x/SKILL.md"),
      () => skills.readDirectory("skill://x"),
    ]) {
      try {
        await run();
        assert.unreachable("sent");
      } catch (e) {
        assert.is((e as McpError).code, -32601);
      }
    }
    // A server without skills answers their methods as unknown.
    try {
      await client.session.request("skills/list", {});
      assert.unreachable("answered");
    } catch (e) {
      assert.is((e as McpError).code, -32601);
    }
  } finally {
    await client.close();
    await plain.close();
  }
});

test.run();
