/**
 * Base64 without Node's Buffer, so the code that encodes header values and request state also
 * loads on workerd and in browsers (btoa/atob are on every host).
 */

/** Standard base64 of bytes. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** base64url without padding (RFC 4648 §5), as Buffer's "base64url" writes it. */
export function bytesToBase64url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Bytes of standard base64 or base64url (padded or not); throws on other characters. */
export function base64ToBytes(text: string): Uint8Array {
  let b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  if (b64.length % 4 !== 0) b64 += "=".repeat(4 - (b64.length % 4));
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
