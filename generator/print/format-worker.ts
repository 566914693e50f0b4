/** Worker thread of the format pool: formats one file per message. */
import { parentPort } from "node:worker_threads";
import { formatSource } from "./format.js";

export interface FormatRequest {
  id: number;
  path: string;
  contents: string;
}

export type FormatReply = { id: number; ok: true; contents: string } | { id: number; ok: false; message: string };

parentPort!.on("message", async (req: FormatRequest) => {
  let reply: FormatReply;
  try {
    reply = { id: req.id, ok: true, contents: await formatSource(req.path, req.contents) };
  } catch (e) {
    reply = { id: req.id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(reply);
});
