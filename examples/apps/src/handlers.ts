// The dice example's only handler. The roll is returned as structured output; a host that renders
// MCP Apps hands it to the view (ui/roller.html), others show it as JSON text.
import { randomInt } from "node:crypto";
import type { DiceHandlers } from "./mcp/server.js";

export const handlers: DiceHandlers = {
  tools: {
    rollDice: ({ count, sides }) => {
      const rolls = Array.from({ length: count }, () => randomInt(1, sides + 1));
      return { rolls, sides, total: rolls.reduce((a, b) => a + b, 0) };
    },
  },
};
