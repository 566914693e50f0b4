// Handlers of the weather example: one per tool, prompt, resource and template of
// ../mcp.manifest.json. Inputs are typed from the manifest's inputSchemas; returns are checked
// against the outputSchemas at compile time (and again by the runtime before anything is sent).
import { toolError } from "@mcpgen/runtime/facades";
import type { WeatherExampleHandlers } from "./mcp/server.js";
import type { GetForecastOutput, SearchStationsOutputStationsItem } from "./mcp/types.js";

const CITIES: Record<string, { country: string; base: number }> = {
  Paris: { country: "FR", base: 14 },
  Oslo: { country: "NO", base: 6 },
  Lisbon: { country: "PT", base: 19 },
  Denver: { country: "US", base: 11 },
};

const STATIONS: SearchStationsOutputStationsItem[] = [
  { id: "FR-PAR-01", name: "Paris Montsouris", elevation: 75, sensors: ["temperature", "wind", "rain"] },
  { id: "NO-OSL-01", name: "Oslo Blindern", elevation: 94, sensors: ["temperature", "pressure"] },
  { id: "PT-LIS-01", name: "Lisboa Geofisico", elevation: null, sensors: ["temperature", "wind"] },
];

const SUMMARIES = ["sunny", "cloudy", "showers", "windy", "clear"];
const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

function forecast(city: string, days: number, units: "metric" | "imperial", hourly: boolean): GetForecastOutput {
  const base = CITIES[city]?.base ?? 12;
  const convert = (c: number) => (units === "metric" ? c : Math.round(c * 1.8 + 32));
  return {
    city,
    units,
    days: Array.from({ length: days }, (_, d) => ({
      date: `2026-06-${String(d + 1).padStart(2, "0")}`,
      summary: SUMMARIES[(base + d) % SUMMARIES.length]!,
      high: convert(base + 6 + (d % 3)),
      low: convert(base - 3 + (d % 2)),
      ...(hourly
        ? {
            hours: [6, 12, 18].map((hour) => ({
              hour,
              temperature: convert(base + hour / 3),
              wind: { speed: 3 + d, direction: "NW" as const },
            })),
          }
        : {}),
    })),
  };
}

export const handlers: WeatherExampleHandlers = {
  tools: {
    // `days`, `units` and `hourly` arrive with the inputSchema's defaults filled in (typed present).
    async getForecast({ location, days, units, hourly }, ctx) {
      await ctx.log("info", { tool: "get_forecast", city: location.city });
      // Report progress per day (a client that passes onprogress sees it; others see nothing).
      for (let d = 1; d <= days; d++) await ctx.sendProgress(d, { total: days, message: `day ${d}` });
      return forecast(location.city, days, units, hourly);
    },
    searchStations({ name, near, limit }) {
      const q = name?.toLowerCase();
      const found = STATIONS.filter((s) => q === undefined || s.name.toLowerCase().includes(q));
      // `near` would sort by distance in a real server; canned data keeps the order.
      void near;
      return { stations: found.slice(0, limit) };
    },
    setAlert({ city, condition, labels }) {
      if (!(city in CITIES)) return toolError(`Unknown city ${city}; known: ${Object.keys(CITIES).join(", ")}`);
      const what =
        condition.kind === "temperature"
          ? `temperature above ${condition.above}`
          : `wind above ${condition.speedAbove}`;
      return `Alert set for ${city}: ${what}${
        labels
          ? ` [${Object.entries(labels)
              .map(([k, v]) => `${k}=${v}`)
              .join(", ")}]`
          : ""
      }`;
    },
  },
  prompts: {
    planTrip: ({ city, activity }) => [
      {
        role: "user",
        content: {
          type: "text",
          text: `Plan ${activity ?? "outdoor activities"} in ${city} around this week's forecast.`,
        },
      },
      {
        role: "user",
        content: {
          type: "resource_link",
          uri: `weather://forecast/${encodeURIComponent(city)}/monday`,
          name: "forecast",
        },
      },
    ],
  },
  resources: {
    stations: () => JSON.stringify(STATIONS),
    forecast: ({ city, day }) => {
      const index = DAYS.indexOf(day);
      if (index < 0) throw new Error(`day must be one of ${DAYS.join(", ")}`);
      return JSON.stringify(forecast(city, index + 1, "metric", false).days[index]);
    },
  },
  completions: {
    prompts: {
      planTrip: { city: (value) => Object.keys(CITIES).filter((c) => c.toLowerCase().startsWith(value.toLowerCase())) },
    },
    resources: {
      forecast: {
        city: (value) => Object.keys(CITIES).filter((c) => c.toLowerCase().startsWith(value.toLowerCase())),
        day: (value) => DAYS.filter((d) => d.startsWith(value.toLowerCase())),
      },
    },
  },
};
