import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseBearerChallenge } from "@mcpgen/runtime/auth";

test("Bearer parameters: quoted, token, escaped; other schemes and token68 skipped", () => {
  assert.equal(
    parseBearerChallenge(`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource/mcp", scope="a b"`),
    {
      resourceMetadata: "https://x/.well-known/oauth-protected-resource/mcp",
      scope: "a b",
      error: undefined,
      errorDescription: undefined,
    },
  );
  assert.equal(
    parseBearerChallenge(`Basic abc==, Bearer error=insufficient_scope, scope="w", error_description="say \\"hi\\""`)!
      .errorDescription,
    'say "hi"',
  );
  assert.is(parseBearerChallenge(`Basic realm="x", DPoP algs="ES256"`), undefined);
  assert.is(parseBearerChallenge(`bearer Scope="s"`)!.scope, "s");
  assert.is(parseBearerChallenge(undefined), undefined);
  assert.is(parseBearerChallenge(`Bearer scope="${"x".repeat(10_000)}"`), undefined);
  assert.is(parseBearerChallenge(`Bearer scope="unterminated`)!.scope, "unterminated");
});

test.run();
