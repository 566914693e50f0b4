/**
 * `mcpgen generate --watch`: generate, then regenerate whenever a manifest, schema file or config
 * file changes. Changes are debounced (an editor's save is often several events); a change during
 * a run schedules exactly one more run after it; errors are reported and watching goes on. Output
 * is never half-written: each run goes through generate(), which writes a temporary sibling
 * directory and renames it into place only when everything was produced.
 *
 * Directories are watched rather than files, filtered by name, because editors save by writing a
 * new file and renaming it over the old one, which ends a watch on the old file.
 */
import { watch as fsWatch, type FSWatcher } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { configFileNames, findConfig, loadConfig, resolveTargets } from "./config.js";
import { generate, type GenerateOptions, type GenerateResult } from "./generate.js";
import { bundledRevisions } from "./load/schema-manifest.js";

export type WatchEvent =
  | { kind: "generated"; result: GenerateResult }
  | { kind: "error"; error: unknown }
  | { kind: "watching"; files: string[] };

export interface WatchOptions extends GenerateOptions {
  /** Quiet period after the last change before regenerating (ms; default 100). */
  debounceMs?: number;
  /** Receives every outcome; watching never stops on an error. */
  report: (event: WatchEvent) => void;
  /** Stops watching; the returned promise resolves once the current run has finished. */
  signal: AbortSignal;
  /**
   * Runs before each generation (code first: extract the manifest from the handlers module);
   * resolves to further files whose change means "run again". When it throws, the error is
   * reported, generation is skipped and the files it named last time stay watched.
   */
  prepare?: () => Promise<string[]>;
  /** Files always watched besides the targets' inputs (code first: the handlers module). */
  extraInputs?: string[];
}

export async function watchGenerate(options: WatchOptions): Promise<void> {
  const cwd = options.cwd ?? process.cwd();
  const debounceMs = options.debounceMs ?? 100;
  const { report, signal, debounceMs: _d, prepare, extraInputs = [], ...generateOptions } = options;
  let prepared: string[] = [];
  const watchers = new Map<string, FSWatcher>();
  let names = new Map<string, Set<string>>(); // directory -> file names that matter in it
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const onChange = () => {
    if (signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (running) again = true;
      else running = run();
    }, debounceMs);
  };

  const rewatch = (files: string[]) => {
    const next = new Map<string, Set<string>>();
    for (const f of files) {
      const dir = dirname(f);
      if (!next.has(dir)) next.set(dir, new Set());
      next.get(dir)!.add(basename(f));
    }
    for (const [dir, w] of watchers) {
      if (next.has(dir)) continue;
      w.close();
      watchers.delete(dir);
    }
    for (const dir of next.keys()) {
      if (watchers.has(dir)) continue;
      try {
        const w = fsWatch(dir, (_event, name) => {
          // no name (some platforms): assume it matters
          if (name === null || names.get(dir)?.has(basename(name.toString()))) onChange();
        });
        w.on("error", () => void 0); // the directory went away; the next run re-resolves
        watchers.set(dir, w);
      } catch {
        // the directory does not exist (yet); a later run watches it
      }
    }
    const changed =
      JSON.stringify([...next].map(([d, s]) => [d, [...s]])) !==
      JSON.stringify([...names].map(([d, s]) => [d, [...s]]));
    names = next;
    if (changed) report({ kind: "watching", files: files.sort() });
  };

  const run = async (): Promise<void> => {
    try {
      if (prepare) prepared = await prepare();
      report({ kind: "generated", result: await generate(generateOptions) });
    } catch (error) {
      report({ kind: "error", error });
    }
    const inputs = [...new Set([...(await inputsOf(generateOptions, cwd)), ...extraInputs, ...prepared])];
    // stopped meanwhile: stop() has closed the watchers, so open none again
    if (!signal.aborted) rewatch(inputs);
    running = undefined;
    if (again && !signal.aborted) {
      again = false;
      running = run();
      await running;
    }
  };

  await new Promise<void>((resolveDone) => {
    const stop = async () => {
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
      await running;
      resolveDone();
    };
    if (signal.aborted) return void stop();
    signal.addEventListener("abort", () => void stop(), { once: true });
    running = run();
  });
}

/**
 * Absolute paths whose change means "generate again": every config file name in cwd (creating one
 * changes the targets), the config given with --config, and each target's manifest or schema file.
 * When the targets cannot be resolved (a broken config), the config files alone.
 */
async function inputsOf(options: GenerateOptions, cwd: string): Promise<string[]> {
  const files = new Set(configFileNames.map((n) => resolve(cwd, n)));
  files.add(resolve(cwd, "mcp.manifest.json"));
  try {
    const config = findConfig(cwd, options.config);
    if (config) files.add(config);
    const targets = resolveTargets(options, await loadConfig(cwd, options.config));
    const bundled = new Set(bundledRevisions());
    for (const t of targets) {
      if (t.manifest !== undefined) files.add(resolve(cwd, t.manifest));
      else if (!bundled.has(t.schema)) files.add(resolve(cwd, t.schema));
    }
  } catch {
    // reported by the run itself
  }
  return [...files];
}
