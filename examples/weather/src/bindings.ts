// The protocol revisions this example speaks: mcpgen's generated protocol bindings.
import type { ProtocolBinding } from "@mcpgen/runtime";
import { binding as b20241105 } from "../../../generated/2024-11-05/index.js";
import { binding as b20250326 } from "../../../generated/2025-03-26/index.js";
import { binding as b20250618 } from "../../../generated/2025-06-18/index.js";
import { binding as b20251125 } from "../../../generated/2025-11-25/index.js";

export const bindings: ProtocolBinding[] = [b20251125, b20250618, b20250326, b20241105];
