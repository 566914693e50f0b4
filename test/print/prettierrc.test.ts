// The project's own source and the files mcpgen generates are laid out alike: .prettierrc (what
// `npm run format` applies) holds exactly the generator's prettier options, printWidth included
// (PRINT_WIDTH of generator/print/width.ts). A change to either shows up here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { prettierOptions } from "../../generator/print/index.js";
import { PRINT_WIDTH } from "../../generator/print/width.js";
import { repoRoot } from "../helpers.js";

test(".prettierrc is the generator's prettier options, printWidth PRINT_WIDTH", () => {
  const rc = JSON.parse(readFileSync(join(repoRoot, ".prettierrc"), "utf8")) as Record<string, unknown>;
  assert.is(rc.printWidth, PRINT_WIDTH);
  assert.equal(rc, { ...prettierOptions });
});

test.run();
