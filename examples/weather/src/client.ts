// The weather example client: starts the server as a child process over stdio and calls every
// tool, prompt, resource and template with typed results. `npm run example:weather`.
import { fileURLToPath } from "node:url";
import { StdioClientTransport } from "@mcpgen/runtime/stdio";
import { createWeatherExampleClient } from "./mcp/client.js";

const serverScript = fileURLToPath(new URL("./server.js", import.meta.url));
const weather = await createWeatherExampleClient(
  new StdioClientTransport({ command: process.execPath, args: [serverScript] }),
  {
    clientInfo: { name: "weather-example-client", version: "1.0.0" },
  },
);

try {
  console.log(
    `connected to ${weather.serverInfo.name} ${weather.serverInfo.version} (protocol ${weather.protocolVersion})`,
  );
  await weather.setLoggingLevel("info");
  weather.on("notifications/message", (m) => console.log(`  [server log] ${JSON.stringify(m.data)}`));

  const forecast = await weather.tools.getForecast(
    { location: { city: "Paris", country: "FR" }, days: 3, hourly: true },
    { onprogress: (p) => console.log(`  progress ${p.progress}/${p.total}`) },
  );
  if (forecast.isError) throw new Error("get_forecast failed");
  // `structured` is GetForecastOutput: typed all the way down.
  for (const day of forecast.structured.days)
    console.log(
      `${forecast.structured.city} ${day.date}: ${day.summary}, ${day.low}..${day.high}, wind ${day.hours?.[0]?.wind?.speed ?? "?"}`,
    );

  const stations = await weather.tools.searchStations({ name: "o" });
  if (!stations.isError)
    console.log(
      `stations: ${stations.structured.stations.map((s) => `${s.id} (${s.elevation ?? "n/a"} m)`).join(", ")}`,
    );

  const alert = await weather.tools.setAlert({
    city: "Oslo",
    condition: { kind: "wind", speedAbove: 15 },
    labels: { team: "ops" },
  });
  console.log(`set_alert: ${alert.content.map((b) => (b.type === "text" ? b.text : b.type)).join(" ")}`);
  const unknown = await weather.tools.setAlert({ city: "Atlantis", condition: { kind: "temperature", above: 30 } });
  console.log(`set_alert (unknown city): isError=${unknown.isError}`);

  const prompt = await weather.prompts.planTrip({ city: "Lisbon", activity: "sailing" });
  console.log(`plan-trip: ${prompt.messages.length} messages`);

  const all = await weather.resources.stations();
  console.log(
    `weather://stations: ${all.contents.length} entry, ${"text" in all.contents[0]! ? all.contents[0].text.length : 0} chars`,
  );
  const monday = await weather.resources.forecast({ city: "Denver", day: "monday" });
  console.log(`${monday.contents[0]!.uri}: ${"text" in monday.contents[0]! ? monday.contents[0].text : ""}`);

  const cities = await weather.completions.resources.forecast("city", "o");
  const days = await weather.completions.resources.forecast("day", "t");
  console.log(`completions: city "o" -> ${cities.values.join(", ")}; day "t" -> ${days.values.join(", ")}`);
} finally {
  await weather.close();
}
