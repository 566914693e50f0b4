/**
 * Protocol bindings that load on first use. A revision's head (version string, era, batching) is
 * all version negotiation and era routing need, so generated code gives only that plus an import
 * thunk of the revision's methods module (`lazyRevision`): its method table loads when a
 * connection first uses the revision. Its validators are most of the runtime's size, split by the
 * generator into one module per method validator (plus shared definitions), each behind an import
 * thunk in the revision's `loaders.ts`. A server that negotiated 2025-11-25 and has seen
 * `initialize` and `tools/call` has loaded that revision's table and those two validators and
 * nothing else; a bundler still sees every module, one chunk each.
 */
import type {
  Era,
  MethodTable,
  ProtocolBinding,
  Validator,
  ValidatorLoaders,
  ValidatorModule,
} from "./protocol-binding.js";

/** What `@mcpgen/runtime/protocol/<rev>/methods` exports: a revision's table and its validator loaders. */
export interface RevisionInfo {
  readonly revision: string;
  readonly era: Era;
  readonly batching: boolean;
  readonly methods: MethodTable;
  readonly validators: ValidatorLoaders;
}

type Validators = Readonly<Record<string, Validator>>;
export type ValidatorKind = "params" | "results";
type Loaders = Readonly<Record<string, () => Promise<Validator>>>;

const KIND_NAME: Record<ValidatorKind, string> = { params: "params", results: "result" };

/** What a binding knows without loading anything: enough to negotiate and route by era. */
export interface RevisionHead {
  readonly revision: string;
  readonly era: Era;
  readonly batching: boolean;
}

/** A revision's method table with its validator loaders, once its module is loaded. */
interface Table {
  readonly methods: MethodTable;
  readonly loaders: Record<ValidatorKind, Loaders>;
}

/**
 * What `methods` / `params` / `results` hold until the revision's table is loaded: any read is a
 * runtime bug (the session loads the table a message needs before handling it), so it throws
 * rather than answering "no such method".
 */
function unloaded<T extends object>(revision: string, what: string): T {
  const fail = (): never => {
    throw new Error(
      `mcpgen runtime: the ${what} of protocol revision ${revision} was used before the revision was loaded`,
    );
  };
  return new Proxy({} as T, { get: fail, has: fail, ownKeys: fail, getOwnPropertyDescriptor: fail });
}

/**
 * A binding whose `params` / `results` records hold, per method, the validator once loaded and
 * before that a stand-in that throws when called (a runtime bug: the session loads what a message
 * needs before handling it). The records stay plain objects with one data property per method,
 * so the per-message lookups stay as fast as with an eager binding. Its method table may itself
 * be behind an import (`lazyRevision`): until it loads, only the revision's head is known.
 */
class LazyBinding implements ProtocolBinding {
  readonly revision: string;
  readonly era: Era;
  readonly batching: boolean;
  methods: MethodTable;
  params: Validators;
  results: Validators;
  #loaders: Record<ValidatorKind, Loaders> | undefined;
  #pending: Record<ValidatorKind, Set<string>> | undefined;
  // The last method whose params / result validator was found loaded: a connection asks about
  // the same method for every call it makes, and a string comparison is cheaper than a Set
  // lookup. Only ever a loaded one (validators are never unloaded), so it cannot go stale.
  #readyParams: string | undefined;
  #readyResults: string | undefined;
  readonly #loading = new Map<string, Promise<Validator>>();
  readonly #source: (() => Promise<Table>) | undefined;
  #tableLoading: Promise<void> | undefined;

  constructor(head: RevisionHead, table: Table | (() => Promise<Table>)) {
    this.revision = head.revision;
    this.era = head.era;
    this.batching = head.batching;
    if (typeof table === "function") {
      this.#source = table;
      this.methods = unloaded(head.revision, "method table");
      this.params = unloaded(head.revision, "params validators");
      this.results = unloaded(head.revision, "result validators");
    } else {
      this.methods = table.methods;
      this.params = {};
      this.results = {};
      this.install(table);
    }
  }

  private install(table: Table): void {
    this.methods = table.methods;
    this.#loaders = table.loaders;
    this.#pending = {
      params: new Set(Object.keys(table.loaders.params)),
      results: new Set(Object.keys(table.loaders.results)),
    };
    this.params = this.record("params");
    this.results = this.record("results");
  }

  /** Whether the method table (and so the validator loaders) is loaded. */
  get tableLoaded(): boolean {
    return this.#loaders !== undefined;
  }

  /** Loads the revision's method table once; a failed load is retried by the next caller. */
  loadTable(): Promise<void> {
    if (this.#loaders !== undefined) return Promise.resolve();
    return (this.#tableLoading ??= this.#source!().then(
      (table) => {
        if (this.#loaders === undefined) this.install(table);
        this.#tableLoading = undefined;
      },
      (e: unknown) => {
        this.#tableLoading = undefined;
        throw new Error(
          `protocol revision ${this.revision}: its method table could not be loaded: ${e instanceof Error ? e.message : String(e)}`,
          { cause: e },
        );
      },
    ));
  }

  private record(kind: ValidatorKind): Validators {
    const out: Record<string, Validator> = {};
    for (const method of this.#pending![kind]) {
      out[method] = (() => {
        throw new Error(
          `mcpgen runtime: the ${KIND_NAME[kind]} validator of ${method} (protocol revision ${this.revision}) was used before it was loaded`,
        );
      }) as unknown as Validator;
    }
    return out;
  }

  /** Whether `method`'s `kind` validator (or the table saying whether there is one) is not loaded yet. */
  pending(kind: ValidatorKind, method: string): boolean {
    if (method === (kind === "params" ? this.#readyParams : this.#readyResults)) return false;
    if (this.#pending === undefined || this.#pending[kind].has(method)) return true;
    if (kind === "params") this.#readyParams = method;
    else this.#readyResults = method;
    return false;
  }

  /** Loads `method`'s `kind` validator once (undefined when it has none); a failed load is retried by the next caller. */
  load(kind: ValidatorKind, method: string): Promise<Validator | undefined> {
    if (this.#loaders === undefined) return this.loadTable().then(() => this.load(kind, method));
    const loader = Object.hasOwn(this.#loaders[kind], method) ? this.#loaders[kind][method] : undefined;
    if (loader === undefined) return Promise.resolve(undefined);
    if (!this.pending(kind, method)) return Promise.resolve(this[kind][method]);
    const key = `${kind} ${method}`;
    let loading = this.#loading.get(key);
    if (loading === undefined) {
      loading = loader().then(
        (validate) => {
          if (this.#pending![kind].delete(method)) (this[kind] as Record<string, Validator>)[method] = validate;
          this.#loading.delete(key);
          return validate;
        },
        (e: unknown) => {
          this.#loading.delete(key);
          throw new Error(
            `protocol revision ${this.revision}: the ${KIND_NAME[kind]} validator of ${method} could not be loaded: ${e instanceof Error ? e.message : String(e)}`,
            { cause: e },
          );
        },
      );
      this.#loading.set(key, loading);
    }
    return loading;
  }
}

// What only some programs use (loadBindings, deriveBinding) is kept out of the class, so a bundle
// of a program without them (a generated server) leaves it out. Once the table is loaded, a
// binding's `params` / `results` have one key per method with a loader (see record).
const KINDS: readonly ValidatorKind[] = ["params", "results"];

/** Loads the table and every validator of the revision. */
async function loadAll(binding: LazyBinding): Promise<void> {
  await binding.loadTable();
  await Promise.all(KINDS.flatMap((kind) => Object.keys(binding[kind]).map((m) => binding.load(kind, m))));
}

/** The loaders of `binding`'s validators, each going through its cache (table loaded). */
function sharedLoaders(binding: LazyBinding): Record<ValidatorKind, Record<string, () => Promise<Validator>>> {
  const share = (kind: ValidatorKind) => {
    const out: Record<string, () => Promise<Validator>> = Object.create(null);
    for (const m of Object.keys(binding[kind])) out[m] = () => binding.load(kind, m).then((v) => v!);
    return out;
  };
  return { params: share("params"), results: share("results") };
}

function moduleLoaders(revision: string, kind: ValidatorKind, given: unknown): Loaders {
  if (typeof given !== "object" || given === null)
    throw new TypeError(
      `lazyBinding(${revision}): validators.${kind} must be an object of import thunks; regenerate the protocol bindings`,
    );
  const out: Record<string, () => Promise<Validator>> = Object.create(null);
  for (const [method, thunk] of Object.entries(given as Record<string, unknown>)) {
    if (typeof thunk !== "function")
      throw new TypeError(
        `lazyBinding(${revision}): validators.${kind}[${JSON.stringify(method)}] must be a function returning the validator's module`,
      );
    out[method] = () =>
      (thunk as () => Promise<ValidatorModule>)().then((m) => {
        if (typeof m?.validate !== "function") throw new TypeError("its module exports no validate function");
        return m.validate;
      });
  }
  return out;
}

/** A revision module's table and validator loaders, checked (the module may be from another runtime). */
function tableOf(info: RevisionInfo): Table {
  if (typeof info?.validators !== "object" || info.validators === null) {
    throw new TypeError(
      `lazyBinding(${String(info?.revision)}): the revision's module has no validators; it was generated for another @mcpgen/runtime ABI, regenerate it`,
    );
  }
  if (typeof info.methods !== "object" || info.methods === null)
    throw new TypeError(`lazyBinding(${info.revision}): the revision's module has no method table`);
  return {
    methods: info.methods,
    loaders: {
      params: moduleLoaders(info.revision, "params", info.validators.params),
      results: moduleLoaders(info.revision, "results", info.validators.results),
    },
  };
}

/**
 * A binding for the revision `info` describes (a revision's `methods` module, already loaded),
 * whose validators load per method through `info.validators` the first time a connection needs
 * each, then are shared by every connection.
 */
export function lazyBinding(info: RevisionInfo): ProtocolBinding {
  return new LazyBinding(info, tableOf(info));
}

/**
 * A binding for revision `head` whose method table loads (through `load`, generated code's
 * an import thunk of the revision's `methods` module) when a connection first uses the
 * revision; its validators then load per method. Until then only `head` is known, which is all
 * version negotiation and era routing need. The loaded module must be the revision `head` names.
 */
export function lazyRevision(head: RevisionHead, load: () => Promise<RevisionInfo>): ProtocolBinding {
  if (
    typeof head?.revision !== "string" ||
    (head.era !== "legacy" && head.era !== "modern") ||
    typeof head.batching !== "boolean"
  ) {
    throw new TypeError(
      `lazyRevision: expected { revision, era, batching } of a protocol revision, got ${JSON.stringify(head)}`,
    );
  }
  if (typeof load !== "function")
    throw new TypeError(`lazyRevision(${head.revision}): expected a function importing the revision's methods module`);
  const { revision, era, batching } = head;
  return new LazyBinding({ revision, era, batching }, async () => {
    const info = await load();
    if (info?.revision !== revision || info.era !== era || info.batching !== batching) {
      throw new TypeError(
        `the module loaded is revision ${String(info?.revision)} (${String(info?.era)} era, batching ${String(info?.batching)}), not the ${revision} (${era} era, batching ${batching}) the generated bindings name; regenerate them`,
      );
    }
    return tableOf(info);
  });
}

/** Resolves once `binding`'s method table can be read; undefined when it already can. */
export function tableReady(binding: ProtocolBinding): Promise<void> | undefined {
  return binding instanceof LazyBinding && !binding.tableLoaded ? binding.loadTable() : undefined;
}

/** Whether `binding`'s method table can be read now (eager bindings always). */
export function tableLoaded(binding: ProtocolBinding): boolean {
  return !(binding instanceof LazyBinding) || binding.tableLoaded;
}

/** Loads the method tables of every binding given (validators still load per method). */
export async function loadTables(bindings: readonly ProtocolBinding[]): Promise<void> {
  await tablesReady(bindings);
}

/** Resolves once every given binding's method table can be read; undefined when all already can. */
export function tablesReady(bindings: readonly ProtocolBinding[]): Promise<void> | undefined {
  const loading = bindings.map((b) => tableReady(b)).filter((p) => p !== undefined);
  return loading.length === 0 ? undefined : Promise.all(loading).then(() => undefined);
}

/** Resolves once `binding`'s `kind` validator of `method` can be read; undefined when it already can (or there is none). */
export function validatorReady(
  binding: ProtocolBinding,
  kind: ValidatorKind,
  method: string,
): Promise<void> | undefined {
  if (!(binding instanceof LazyBinding) || !binding.pending(kind, method)) return undefined;
  return binding.load(kind, method).then(() => undefined);
}

/** `binding`'s `kind` validator of `method`, loaded if need be; undefined when the revision has none. */
export function loadValidator(
  binding: ProtocolBinding,
  kind: ValidatorKind,
  method: string,
): Promise<Validator | undefined> {
  if (binding instanceof LazyBinding) return binding.load(kind, method);
  return Promise.resolve(Object.hasOwn(binding[kind], method) ? binding[kind][method] : undefined);
}

/** Loads every table and validator of every lazy binding given (eager ones are ready already). */
export async function loadBindings(bindings: readonly ProtocolBinding[]): Promise<void> {
  await Promise.all(bindings.map((b) => (b instanceof LazyBinding ? loadAll(b) : undefined)));
}

type Change = { methods?: (m: MethodTable) => MethodTable; params?: (method: string, v: Validator) => Validator };

/** The derived table of a lazy `base` whose table is loaded: validators load through the base's. */
function derivedTable(base: LazyBinding, change: Change): Table {
  const shared = sharedLoaders(base);
  const mapParams = change.params;
  let params: Record<string, () => Promise<Validator>> = shared.params;
  if (mapParams) {
    params = Object.create(null);
    for (const [m, load] of Object.entries(shared.params)) params[m] = () => load().then((v) => mapParams(m, v));
  }
  return {
    methods: change.methods ? change.methods(base.methods) : base.methods,
    loaders: { params, results: shared.results },
  };
}

/**
 * A binding made from `base` by changing its method table and/or its params validators (per
 * method), without loading `base`: a lazy base gives a lazy result whose table loads with the
 * base's and whose validators load through the base's, so both share one import per module.
 */
export function deriveBinding(base: ProtocolBinding, change: Change): ProtocolBinding {
  const head = { revision: base.revision, era: base.era, batching: base.batching };
  if (base instanceof LazyBinding) {
    if (base.tableLoaded) return new LazyBinding(head, derivedTable(base, change));
    return new LazyBinding(head, () => base.loadTable().then(() => derivedTable(base, change)));
  }
  const methods = change.methods ? change.methods(base.methods) : base.methods;
  const mapParams = change.params;
  let params = base.params;
  if (mapParams) {
    const out: Record<string, Validator> = {};
    for (const [m, v] of Object.entries(base.params)) out[m] = mapParams(m, v);
    params = out;
  }
  return { ...head, methods, params, results: base.results };
}
