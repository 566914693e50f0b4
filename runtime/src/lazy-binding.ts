/**
 * Protocol bindings whose validators load per method, when a connection first needs them. A
 * revision's method table is small and known at start (version negotiation, handler checks and
 * method lookup need it); its validators are most of the runtime's size, split by the generator
 * into one module per method validator (plus shared definitions), each behind an import thunk in
 * the revision's `loaders.ts`. A server that has seen `initialize` and `tools/call` has loaded
 * those two validators and nothing else; a bundler still sees every module, one chunk each.
 */
import type { Era, MethodTable, ProtocolBinding, Validator, ValidatorLoaders, ValidatorModule } from "./abi.js";

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

/**
 * A binding whose `params` / `results` records hold, per method, the validator once loaded and
 * before that a stand-in that throws when called (a runtime bug: the session loads what a message
 * needs before handling it). The records stay plain objects with one data property per method,
 * so the per-message lookups stay as fast as with an eager binding.
 */
class LazyBinding implements ProtocolBinding {
  readonly revision: string;
  readonly era: Era;
  readonly batching: boolean;
  readonly methods: MethodTable;
  readonly params: Validators;
  readonly results: Validators;
  readonly #loaders: Record<ValidatorKind, Loaders>;
  readonly #pending: Record<ValidatorKind, Set<string>>;
  readonly #loading = new Map<string, Promise<Validator>>();

  constructor(info: Omit<RevisionInfo, "validators">, loaders: Record<ValidatorKind, Loaders>) {
    this.revision = info.revision;
    this.era = info.era;
    this.batching = info.batching;
    this.methods = info.methods;
    this.#loaders = loaders;
    this.#pending = { params: new Set(Object.keys(loaders.params)), results: new Set(Object.keys(loaders.results)) };
    this.params = this.record("params");
    this.results = this.record("results");
  }

  private record(kind: ValidatorKind): Validators {
    const out: Record<string, Validator> = {};
    for (const method of this.#pending[kind]) {
      out[method] = (() => {
        throw new Error(`mcpgen runtime: the ${KIND_NAME[kind]} validator of ${method} (protocol revision ${this.revision}) was used before it was loaded`);
      }) as unknown as Validator;
    }
    return out;
  }

  /** Whether `method` has a `kind` validator that is not loaded yet. */
  pending(kind: ValidatorKind, method: string): boolean {
    return this.#pending[kind].has(method);
  }

  /** Loads `method`'s `kind` validator once (undefined when it has none); a failed load is retried by the next caller. */
  load(kind: ValidatorKind, method: string): Promise<Validator | undefined> {
    const loader = Object.hasOwn(this.#loaders[kind], method) ? this.#loaders[kind][method] : undefined;
    if (loader === undefined) return Promise.resolve(undefined);
    if (!this.pending(kind, method)) return Promise.resolve(this[kind][method]);
    const key = `${kind} ${method}`;
    let loading = this.#loading.get(key);
    if (loading === undefined) {
      loading = loader().then(
        (validate) => {
          if (this.#pending[kind].delete(method)) (this[kind] as Record<string, Validator>)[method] = validate;
          this.#loading.delete(key);
          return validate;
        },
        (e: unknown) => {
          this.#loading.delete(key);
          throw new Error(`protocol revision ${this.revision}: the ${KIND_NAME[kind]} validator of ${method} could not be loaded: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
        },
      );
      this.#loading.set(key, loading);
    }
    return loading;
  }

  /** Loads every validator of the revision. */
  async loadAll(): Promise<void> {
    const kinds: ValidatorKind[] = ["params", "results"];
    await Promise.all(kinds.flatMap((kind) => Object.keys(this.#loaders[kind]).map((m) => this.load(kind, m))));
  }

  /** The loader of `method`'s `kind` validator, for derived bindings. */
  loaderOf(kind: ValidatorKind, method: string): () => Promise<Validator> {
    return () => this.load(kind, method).then((v) => v!);
  }

  loaderNames(kind: ValidatorKind): string[] {
    return Object.keys(this.#loaders[kind]);
  }
}

function moduleLoaders(revision: string, kind: ValidatorKind, given: unknown): Loaders {
  if (typeof given !== "object" || given === null) throw new TypeError(`lazyBinding(${revision}): validators.${kind} must be an object of import thunks; regenerate the protocol bindings`);
  const out: Record<string, () => Promise<Validator>> = Object.create(null);
  for (const [method, thunk] of Object.entries(given as Record<string, unknown>)) {
    if (typeof thunk !== "function") throw new TypeError(`lazyBinding(${revision}): validators.${kind}[${JSON.stringify(method)}] must be a function returning the validator's module`);
    out[method] = () =>
      (thunk as () => Promise<ValidatorModule>)().then((m) => {
        if (typeof m?.validate !== "function") throw new TypeError("its module exports no validate function");
        return m.validate;
      });
  }
  return out;
}

/**
 * A binding for the revision `info` describes (generated code passes the revision's `methods`
 * module), whose validators load per method through `info.validators` the first time a
 * connection needs each, then are shared by every connection.
 */
export function lazyBinding(info: RevisionInfo): ProtocolBinding {
  if (typeof info?.validators !== "object" || info.validators === null) {
    throw new TypeError(`lazyBinding(${String(info?.revision)}): the revision's module has no validators; it was generated for another @mcpgen/runtime ABI, regenerate it`);
  }
  return new LazyBinding(info, { params: moduleLoaders(info.revision, "params", info.validators.params), results: moduleLoaders(info.revision, "results", info.validators.results) });
}

/** Resolves once `binding`'s `kind` validator of `method` can be read; undefined when it already can (or there is none). */
export function validatorReady(binding: ProtocolBinding, kind: ValidatorKind, method: string): Promise<void> | undefined {
  if (!(binding instanceof LazyBinding) || !binding.pending(kind, method)) return undefined;
  return binding.load(kind, method).then(() => undefined);
}

/** `binding`'s `kind` validator of `method`, loaded if need be; undefined when the revision has none. */
export function loadValidator(binding: ProtocolBinding, kind: ValidatorKind, method: string): Promise<Validator | undefined> {
  if (binding instanceof LazyBinding) return binding.load(kind, method);
  return Promise.resolve(Object.hasOwn(binding[kind], method) ? binding[kind][method] : undefined);
}

/** Loads every validator of every lazy binding given (eager ones are ready already). */
export async function loadBindings(bindings: readonly ProtocolBinding[]): Promise<void> {
  await Promise.all(bindings.map((b) => (b instanceof LazyBinding ? b.loadAll() : undefined)));
}

/**
 * A binding made from `base` by changing its method table and/or its params validators (per
 * method), without loading `base`: a lazy base gives a lazy result whose validators load through
 * the base's, so both share one import per module.
 */
export function deriveBinding(
  base: ProtocolBinding,
  change: { methods?: (m: MethodTable) => MethodTable; params?: (method: string, v: Validator) => Validator },
): ProtocolBinding {
  const methods = change.methods ? change.methods(base.methods) : base.methods;
  const info = { revision: base.revision, era: base.era, batching: base.batching, methods };
  const mapParams = change.params;
  if (base instanceof LazyBinding) {
    const params: Record<string, () => Promise<Validator>> = Object.create(null);
    for (const m of base.loaderNames("params")) {
      const load = base.loaderOf("params", m);
      params[m] = mapParams ? () => load().then((v) => mapParams(m, v)) : load;
    }
    const results: Record<string, () => Promise<Validator>> = Object.create(null);
    for (const m of base.loaderNames("results")) results[m] = base.loaderOf("results", m);
    return new LazyBinding(info, { params, results });
  }
  let params = base.params;
  if (mapParams) {
    const out: Record<string, Validator> = {};
    for (const [m, v] of Object.entries(base.params)) out[m] = mapParams(m, v);
    params = out;
  }
  return { ...info, params, results: base.results };
}
