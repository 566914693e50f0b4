/**
 * Protocol bindings loaded when a connection first uses their revision. A revision's method table
 * is small and known at start (version negotiation, handler checks and method lookup need it);
 * its validators are most of the runtime's size and load through the `load` thunk, so a server
 * speaking one revision never pays for the others. A bundler still sees every revision, because
 * generated code names each one in a dynamic import thunk.
 */
import type { Era, MethodTable, ProtocolBinding, Validator } from "./abi.js";

/** What `@mcpgen/runtime/protocol/<rev>/methods` exports: a revision without its validators. */
export interface RevisionInfo {
  readonly revision: string;
  readonly era: Era;
  readonly batching: boolean;
  readonly methods: MethodTable;
}

type Validators = Readonly<Record<string, Validator>>;

interface Loaded {
  readonly params: Validators;
  readonly results: Validators;
}

/** A binding whose validators load on first use; reading them earlier is a runtime bug. */
class LazyBinding implements ProtocolBinding {
  readonly revision: string;
  readonly era: Era;
  readonly batching: boolean;
  readonly methods: MethodTable;
  #loaded: Loaded | undefined;
  #loading: Promise<void> | undefined;
  readonly #load: () => Promise<Loaded>;

  constructor(info: RevisionInfo, load: () => Promise<Loaded>) {
    this.revision = info.revision;
    this.era = info.era;
    this.batching = info.batching;
    this.methods = info.methods;
    this.#load = load;
  }

  get params(): Validators {
    return this.validators().params;
  }

  get results(): Validators {
    return this.validators().results;
  }

  /** The validators once loaded; undefined before. */
  get loaded(): Loaded | undefined {
    return this.#loaded;
  }

  private validators(): Loaded {
    if (this.#loaded === undefined) throw new Error(`mcpgen runtime: the validators of protocol revision ${this.revision} were used before they were loaded`);
    return this.#loaded;
  }

  /** Loads once; a failed load is retried by the next caller. */
  load(): Promise<void> {
    return (this.#loading ??= this.#load().then(
      (v) => {
        if (typeof v?.params !== "object" || typeof v?.results !== "object") throw new TypeError(`protocol revision ${this.revision}: its module exports no binding`);
        this.#loaded = { params: v.params, results: v.results };
      },
      (e: unknown) => {
        this.#loading = undefined;
        throw new Error(`protocol revision ${this.revision} could not be loaded: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      },
    ));
  }
}

/**
 * A binding for `info` whose validators come from `load` (generated code passes a thunk that
 * imports the revision's protocol entry), imported the first time a connection uses the revision,
 * then shared by every connection.
 */
export function lazyBinding(info: RevisionInfo, load: () => Promise<{ readonly binding: ProtocolBinding }>): ProtocolBinding {
  if (typeof load !== "function") throw new TypeError(`lazyBinding(${info.revision}): load must be a function returning the revision's module`);
  return new LazyBinding(info, () => load().then((m) => m.binding));
}

/** Resolves once `binding`'s validators can be used; undefined when they already can. */
export function bindingReady(binding: ProtocolBinding): Promise<void> | undefined {
  return binding instanceof LazyBinding && binding.loaded === undefined ? binding.load() : undefined;
}

/** Loads every lazy binding given (eager ones are ready already). */
export async function loadBindings(bindings: readonly ProtocolBinding[]): Promise<void> {
  await Promise.all(bindings.map(bindingReady));
}

/**
 * A binding made from `base` by changing its method table and/or validators, without loading
 * `base`: a lazy base gives a lazy result that applies `change` once loaded.
 */
export function deriveBinding(
  base: ProtocolBinding,
  change: { methods?: (m: MethodTable) => MethodTable; params?: (p: Validators) => Validators },
): ProtocolBinding {
  const methods = change.methods ? change.methods(base.methods) : base.methods;
  const apply = (v: Loaded): Loaded => ({ params: change.params ? change.params(v.params) : v.params, results: v.results });
  if (base instanceof LazyBinding && base.loaded === undefined) {
    return new LazyBinding({ revision: base.revision, era: base.era, batching: base.batching, methods }, () => base.load().then(() => apply(base.loaded!)));
  }
  const v = apply({ params: base.params, results: base.results });
  return { revision: base.revision, era: base.era, batching: base.batching, methods, params: v.params, results: v.results };
}
