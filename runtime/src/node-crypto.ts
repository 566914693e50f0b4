/**
 * `node:crypto`, loaded on first use. Loading it costs a process about 2.4 MiB of RSS, and a
 * server that never mints 2026-07-28 request state or task ids (a stdio server its legacy
 * clients talk to) should not pay that at start.
 */
import { nodeBuiltin } from "./node-builtin.js";

type NodeCrypto = typeof import("node:crypto");

let loaded: NodeCrypto | undefined;

export function nodeCrypto(): NodeCrypto {
  return (loaded ??= nodeBuiltin<NodeCrypto>("node:crypto"));
}
