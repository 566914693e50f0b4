/** A module imported on first use; `value` once loaded. A failed import is tried again by the next `get`. */
export class LazyModule<T> {
  value: T | undefined;
  #loading: Promise<T> | undefined;
  constructor(private readonly load: () => Promise<T>) {}
  get(): Promise<T> {
    return (this.#loading ??= this.load().then(
      (m) => (this.value = m),
      (e: unknown) => {
        this.#loading = undefined;
        throw e;
      },
    ));
  }
}
