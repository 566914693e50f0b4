/**
 * JSDoc as the extractor reads it: the description, `@tag value` pairs, and `@param a.b text`
 * descriptions of destructured properties. Read through the compiler's own JSDoc parser so a
 * comment on `export const f = () => ...`, on a method, or on a property signature all work.
 */
import { Node, ts } from "ts-morph";

export interface Doc {
  description?: string;
  /** Tag name → text after it ("" for a bare tag); the last of repeated tags wins. */
  tags: Map<string, string>;
  /** `@param input.city text` → "city" → "text" (the first segment, the parameter, is dropped). */
  params: Map<string, string>;
}

const empty = (): Doc => ({ tags: new Map(), params: new Map() });

export function readDoc(node: Node | undefined): Doc {
  const doc = empty();
  if (!node) return doc;
  // JSDoc of `export const f = ...` sits on the statement, which the compiler walks up to itself.
  let parts: readonly (ts.JSDoc | ts.JSDocTag)[] = ts.getJSDocCommentsAndTags(node.compilerNode);
  if (parts.length === 0 && (Node.isPropertySignature(node) || Node.isPropertyAssignment(node)))
    parts = sameLineDoc(node);
  for (const part of parts) {
    if (ts.isJSDoc(part)) {
      const text = clean(ts.getTextOfJSDocComment(part.comment));
      if (text) doc.description = doc.description ? `${doc.description}\n\n${text}` : text;
      for (const tag of part.tags ?? []) readTag(tag, doc);
    } else readTag(part, doc);
  }
  return doc;
}

/**
 * `{ tag?: string; /** @integer *\/ limit?: number }`: the compiler gives a doc comment that
 * follows another member on its line to nobody; on a property it can only mean the next one.
 */
function sameLineDoc(node: Node): readonly (ts.JSDoc | ts.JSDocTag)[] {
  const text = node.getSourceFile().getFullText();
  // to the compiler these are trailing comments of the previous member's `;`
  const ranges = ts.getTrailingCommentRanges(text, node.getPos()) ?? [];
  const last = ranges
    .filter((r) => r.kind === ts.SyntaxKind.MultiLineCommentTrivia && text.startsWith("/**", r.pos))
    .pop();
  if (!last) return [];
  const holder = ts.createSourceFile(
    "doc.ts",
    `${text.slice(last.pos, last.end)}\nvar _: 0;`,
    ts.ScriptTarget.Latest,
    true,
  );
  return ts.getJSDocCommentsAndTags(holder.statements[0]!);
}

function readTag(tag: ts.JSDocTag, doc: Doc): void {
  const comment = clean(ts.getTextOfJSDocComment(tag.comment)) ?? "";
  if (ts.isJSDocParameterTag(tag)) {
    const name = tag.name.getText();
    const dot = name.indexOf(".");
    if (dot > 0 && comment) doc.params.set(name.slice(dot + 1), comment.replace(/^-\s*/, ""));
    return;
  }
  doc.tags.set(tag.tagName.text, comment);
}

function clean(text: string | undefined): string | undefined {
  const t = text?.trim();
  return t ? t : undefined;
}
