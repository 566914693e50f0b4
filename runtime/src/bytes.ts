/**
 * Base64 and base64url of bytes and UTF-8 text with what every host has (btoa/atob, TextEncoder),
 * not node's Buffer: the 2026-07-28 path (request state, header values, task ids) runs on workerd,
 * Bun and Deno as well as Node.
 */
const UTF8_ENCODER = new TextEncoder();
// ignoreBOM keeps a leading BOM (as Buffer did): text is returned as its bytes say.
const UTF8_DECODER = new TextDecoder("utf-8", { ignoreBOM: true });
/** btoa takes at most this many characters' worth of arguments per call (spread into fromCharCode). */
const CHUNK = 0x8000;

export function utf8Bytes(text: string): Uint8Array {
  return UTF8_ENCODER.encode(text);
}

export function utf8Text(bytes: Uint8Array): string {
  return UTF8_DECODER.decode(bytes);
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

/** The bytes of standard base64 (padding optional); throws on characters outside its alphabet. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of base64url (no padding); throws on characters outside its alphabet. */
export function fromBase64Url(text: string): Uint8Array {
  if (/[^A-Za-z0-9_-]/.test(text)) throw new SyntaxError("not base64url");
  return fromBase64(text.replace(/-/g, "+").replace(/_/g, "/"));
}

/** `n` random bytes from WebCrypto. */
export function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}
