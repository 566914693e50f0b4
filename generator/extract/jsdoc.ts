/**
 * JSDoc as the extractor reads it: the description, `@tag value` pairs, and `@param a.b text`
 * descriptions of destructured properties. Read through the compiler's own JSDoc parser so a
 * comment on `export const f = () => ...`, on a method, or on a property signature all work.
 */
import { ts, type Node } from "ts-morph";

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
  const parts = ts.getJSDocCommentsAndTags(node.compilerNode);
  for (const part of parts) {
    if (ts.isJSDoc(part)) {
      const text = clean(ts.getTextOfJSDocComment(part.comment));
      if (text) doc.description = doc.description ? `${doc.description}\n\n${text}` : text;
      for (const tag of part.tags ?? []) readTag(tag, doc);
    } else readTag(part, doc);
  }
  return doc;
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
