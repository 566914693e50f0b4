// The manifest's `skills`: folders and inline files read into entries (frontmatter as JSON, sha256
// digests and sizes of the raw bytes, skill:// URIs, prefixes), the extension declared, and every
// bad declaration an error naming the manifest pointer and the skill file at fault; nothing is
// written when one fails. The frontmatter reader against the YAML it accepts and refuses.
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as fc from "fast-check";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadManifest } from "../../generator/load/manifest.js";
import { InputError, type Diagnostic } from "../../generator/load/diagnostics.js";
import { FrontmatterError, readFrontmatter } from "../../generator/load/frontmatter.js";
import { buildServerModel } from "../../generator/model/build-server.js";
import { check, generate } from "../../generator/generate.js";
import { withTempDir, writeFiles } from "./helpers.js";

const SKILL = "---\nname: git-workflow\ndescription: Follow the team's Git conventions\n---\n\n# Git workflow\n";

function manifest(dir: string, skills: unknown[], extra: object = {}): string {
  const path = join(dir, "mcp.manifest.json");
  writeFileSync(path, JSON.stringify({ name: "s", version: "1.0.0", skills, ...extra }, null, 2));
  return path;
}

function errorsOf(path: string): Diagnostic[] {
  try {
    loadManifest(path, "mcp.manifest.json");
  } catch (e) {
    if (e instanceof InputError) return e.diagnostics.filter((d) => d.severity === "error");
    throw e;
  }
  assert.unreachable("expected an InputError");
  return [];
}

const briefly = (ds: Diagnostic[]) => ds.map((d) => `${d.pointer}: ${d.message}`);

test("skills: a folder and an inline skill become entries with digests, sizes, URIs; the extension is declared", () => {
  withTempDir((dir) => {
    writeFiles(dir, {
      "skills/git-workflow/SKILL.md": SKILL,
      "skills/git-workflow/references/branching.md": "# Branches\n",
      "skills/git-workflow/.DS_Store": "x",
    });
    const path = manifest(dir, [
      { dir: "skills/git-workflow" },
      {
        prefix: "acme/billing",
        files: { "SKILL.md": "---\nname: refunds\ndescription: Refunds\n---\n", "examples/email.md": "Hi" },
      },
    ]);
    const loaded = loadManifest(path);
    const model = buildServerModel(loaded);
    assert.equal(
      model.skills.map((s) => [s.uri, s.files.map((f) => f.path)]),
      [
        ["skill://git-workflow/SKILL.md", ["SKILL.md", "references/branching.md"]],
        ["skill://acme/billing/refunds/SKILL.md", ["SKILL.md", "examples/email.md"]],
      ],
    );
    const md = model.skills[0]!.files[0]!;
    assert.equal(
      [md.digest, md.size, md.mimeType],
      [`sha256:${createHash("sha256").update(SKILL).digest("hex")}`, Buffer.byteLength(SKILL), "text/markdown"],
    );
    assert.equal(model.skills[0]!.frontmatter, {
      name: "git-workflow",
      description: "Follow the team's Git conventions",
    });
    assert.equal(model.capabilities.extensions, { "io.modelcontextprotocol/skills": { directoryRead: true } });
    assert.equal(model.capabilities.resources, {});
  });
});

test("skills: binary files are served as base64 blobs with the digest of their bytes", () => {
  withTempDir((dir) => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
    writeFiles(dir, { "git-workflow/SKILL.md": SKILL });
    writeFileSync(join(dir, "git-workflow", "logo.png"), png);
    const model = buildServerModel(loadManifest(manifest(dir, [{ dir: "git-workflow" }])));
    const logo = model.skills[0]!.files.find((f) => f.path === "logo.png")!;
    assert.equal(
      [logo.blob, logo.text, logo.size, logo.mimeType],
      [png.toString("base64"), undefined, png.length, "image/png"],
    );
    assert.is(logo.digest, `sha256:${createHash("sha256").update(png).digest("hex")}`);
  });
});

test("skills: a SKILL.md with a byte order mark keeps it in the served text, which encodes back to the digested bytes", () => {
  withTempDir((dir) => {
    const bytes = Buffer.from("\ufeff" + SKILL, "utf8");
    writeFiles(dir, { "git-workflow/SKILL.md": "" });
    writeFileSync(join(dir, "git-workflow", "SKILL.md"), bytes);
    const md = buildServerModel(loadManifest(manifest(dir, [{ dir: "git-workflow" }]))).skills[0]!.files[0]!;
    assert.equal(Buffer.from(md.text!, "utf8"), bytes);
    assert.is(md.digest, `sha256:${createHash("sha256").update(bytes).digest("hex")}`);
  });
});

test("skills: each bad declaration is an error naming its pointer and the skill file", () => {
  withTempDir((dir) => {
    writeFiles(dir, {
      "no-md/README.md": "x",
      "bad-yaml/SKILL.md": "---\nname: bad-yaml\ndescription: [unclosed\n---\n",
      "no-front/SKILL.md": "# just markdown\n",
      "Bad_Name/SKILL.md": "---\nname: Bad_Name\ndescription: d\n---\n",
      "mismatch/SKILL.md": "---\nname: other-name\ndescription: d\n---\n",
      "no-desc/SKILL.md": "---\nname: no-desc\n---\n",
    });
    const path = manifest(dir, [
      { dir: "no-md" },
      { dir: "bad-yaml" },
      { dir: "no-front" },
      { dir: "Bad_Name" },
      { dir: "mismatch" },
      { dir: "no-desc" },
      { dir: "missing" },
      { dir: "no-md", files: { "SKILL.md": SKILL } },
      { files: { "README.md": "x" } },
      { files: { "SKILL.md": SKILL, "../escape.md": "x" } },
      { files: { "SKILL.md": SKILL, "has space.md": "x" } },
    ]);
    assert.equal(briefly(errorsOf(path)), [
      '/skills/0/dir: no SKILL.md at the root of "no-md" (every skill has one)',
      "/skills/1/dir: bad-yaml/SKILL.md:3: invalid frontmatter: a flow sequence must end with ] on the same line",
      "/skills/2/dir: no-front/SKILL.md must begin with YAML frontmatter (a `---` line, `name:` and `description:`, a `---` line)",
      '/skills/3/dir: Bad_Name/SKILL.md: frontmatter "name" must be 1-64 lowercase letters, digits and hyphens, without leading, trailing or consecutive hyphens (Agent Skills naming rule); got "Bad_Name"',
      '/skills/4/dir: mismatch/SKILL.md: frontmatter name "other-name" differs from its folder name "mismatch" (Agent Skills: the name matches the folder)',
      '/skills/5/dir: no-desc/SKILL.md: frontmatter "description" must be a non-empty string of at most 1024 characters; got none',
      '/skills/6/dir: folder "missing" not found (relative to the manifest)',
      '/skills/7: expected either "dir" (a folder relative to the manifest) or "files" (inline content by path), not both and not neither',
      '/skills/8/files: missing "SKILL.md" (every skill has one at its root)',
      '/skills/9/files/..~1escape.md: file path "../escape.md" must be relative, without empty, "." or ".." segments',
      '/skills/10/files/has space.md: "has space.md": "has space.md" would need percent-encoding in a skill:// URI; rename it to letters, digits and . _ ~ -',
    ]);
  });
});

test("skills: the extension's limits (512 files, 16 MiB), symbolic links, duplicate skills", () => {
  withTempDir((dir) => {
    const many: Record<string, string> = { "SKILL.md": SKILL };
    for (let i = 0; i < 512; i++) many[`f${i}.md`] = "x";
    writeFiles(dir, {
      "big/SKILL.md": "---\nname: big\ndescription: d\n---\n",
      "linked/SKILL.md": "---\nname: linked\ndescription: d\n---\n",
    });
    writeFileSync(join(dir, "big", "blob.bin"), Buffer.alloc(16 * 1024 * 1024));
    symlinkSync("/etc/hostname", join(dir, "linked", "secret.txt"));
    const path = manifest(dir, [
      { files: many },
      { dir: "big" },
      { dir: "linked" },
      { files: { "SKILL.md": SKILL } },
      { files: { "SKILL.md": SKILL } },
    ]);
    const errors = briefly(errorsOf(path));
    assert.equal(errors.slice(0, 3), [
      "/skills/0/files: 513 files; a skill may have at most 512 (Skills extension limit)",
      `/skills/1/dir: the skill's files add up to ${16 * 1024 * 1024 + Buffer.byteLength("---\nname: big\ndescription: d\n---\n")} bytes; a skill may have at most 16777216 (16 MiB, Skills extension limit)`,
      "/skills/2/dir: linked/secret.txt is a symbolic link (a skill serves only the files in its folder)",
    ]);
    assert.match(
      errors[3]!,
      /^\/skills\/4: skill skill:\/\/git-workflow\/SKILL.md is declared twice \(also at \/skills\/3\)/,
    );
  });
});

test("skills: a bad skill writes nothing; editing a skill file makes the output stale", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpgen-skills-"));
  try {
    writeFiles(dir, { "git-workflow/SKILL.md": SKILL });
    const path = manifest(dir, [{ dir: "git-workflow" }]);
    const out = join(dir, "out");
    const opts = { cwd: dir, manifest: path, out, cache: false, config: false } as const;
    await generate(opts);
    assert.ok(existsSync(join(out, "skills.ts")));
    assert.ok((await check(opts)).ok);
    writeFiles(dir, { "git-workflow/SKILL.md": SKILL + "\nMore.\n" });
    const stale = await check(opts);
    assert.not.ok(stale.ok);
    assert.ok(
      stale.problems.some((p) => p.endsWith("skills.ts (stale)")),
      stale.problems.join("\n"),
    );
    mkdirSync(join(dir, "bad"));
    const bad = manifest(dir, [{ dir: "bad" }]);
    const badOut = join(dir, "bad-out");
    let failed = false;
    try {
      await generate({ cwd: dir, manifest: bad, out: badOut, cache: false, config: false });
    } catch {
      failed = true;
    }
    assert.ok(failed);
    assert.not.ok(existsSync(badOut));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("frontmatter: the YAML skills are written in, as JSON", () => {
  const fm = readFrontmatter(
    [
      "---",
      "name: pdf-processing # the name",
      'description: "Extract text: tables, forms"',
      "license: 'Apache-2.0'",
      "version: 1.0",
      "count: 42",
      "draft: false",
      "empty:",
      "allowed-tools: [Bash, 'Read', \"Write\"]",
      "tags:",
      "  - pdf",
      "  - forms",
      "metadata:",
      "  author: Ada",
      "  nested:",
      "    deep: yes",
      "notes: |",
      "  line one",
      "  line two",
      "folded: >-",
      "  one",
      "  two",
      "---",
      "body",
    ].join("\n"),
  );
  assert.equal(fm, {
    name: "pdf-processing",
    description: "Extract text: tables, forms",
    license: "Apache-2.0",
    version: 1,
    count: 42,
    draft: false,
    empty: null,
    "allowed-tools": ["Bash", "Read", "Write"],
    tags: ["pdf", "forms"],
    metadata: { author: "Ada", nested: { deep: "yes" } },
    notes: "line one\nline two\n",
    folded: "one two",
  });
  assert.is(readFrontmatter("# no frontmatter\n"), null);
  assert.equal(readFrontmatter("\ufeff---\r\nname: x\r\ndescription: y\r\n---\r\n"), { name: "x", description: "y" });
});

test("frontmatter: what it does not read is refused with its line", () => {
  for (const [text, line, message] of [
    ["---\nname: a\n", 3, /not closed/],
    ["---\nname: &anchor a\n---\n", 2, /anchors/],
    ["---\nname: !tag a\n---\n", 2, /tags/],
    ["---\nmeta: {a: 1}\n---\n", 2, /flow mappings/],
    ["---\nname: a\nname: b\n---\n", 3, /duplicate key "name"/],
    ["---\nname: a\n\tdescription: b\n---\n", 3, /tabs/],
    ["---\n- a\n- b\n---\n", 2, /not a mapping/],
    ["---\nname: a: b\n---\n", 2, /cannot contain ": "/],
  ] as const) {
    try {
      readFrontmatter(text);
      assert.unreachable(JSON.stringify(text));
    } catch (e) {
      assert.instance(e, FrontmatterError, text);
      assert.is((e as FrontmatterError).line, line, text);
      assert.match((e as Error).message, message);
    }
  }
});

test("frontmatter: plain and quoted strings round-trip (property)", () => {
  const safe = fc
    .stringMatching(/^[a-z][a-z0-9 ,.()-]{0,40}[a-z0-9.)]$/)
    .filter((s) => !/^(?:null|true|false|yes|no|[-+]?[0-9.]+)$/i.test(s) && !/\s#/.test(s));
  const any = fc.string({ maxLength: 60, unit: "binary" });
  fc.assert(
    fc.property(safe, any, (plain, quoted) => {
      const fm = readFrontmatter(`---\nname: ${plain}\ndescription: ${JSON.stringify(quoted)}\n---\n`);
      assert.equal(fm, { name: plain, description: quoted });
    }),
    { numRuns: 300, seed: 2640 },
  );
});

test.run();
