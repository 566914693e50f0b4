/** Binary payloads the fixtures return: a 1x1 PNG and a short silent WAV clip, base64. */

/** A 1x1 transparent PNG. */
export const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** 10 ms of 8 kHz mono 16-bit PCM silence in a RIFF/WAVE container. */
export const WAV_SILENCE = wav(8000, 80);

// DataView and btoa rather than Buffer: the example also runs on workerd, Bun and Deno (test/hosts).
function wav(sampleRate: number, samples: number): string {
  const dataBytes = samples * 2;
  const bytes = new Uint8Array(44 + dataBytes);
  const v = new DataView(bytes.buffer);
  const ascii = (text: string, at: number): void => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii("RIFF", 0);
  v.setUint32(4, 36 + dataBytes, true);
  ascii("WAVE", 8);
  ascii("fmt ", 12);
  v.setUint32(16, 16, true); // fmt chunk size
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true); // byte rate
  v.setUint16(32, 2, true); // block align
  v.setUint16(34, 16, true); // bits per sample
  ascii("data", 36);
  v.setUint32(40, dataBytes, true);
  return btoa(String.fromCharCode(...bytes));
}
