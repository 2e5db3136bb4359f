/**
 * Copying optional fields: a field whose value is `undefined` is left out rather than set to `undefined`. It matters
 * where objects are shown or compared by their keys — JSON answers and log lines (`"x": undefined` never prints,
 * but `"x" in` and `Object.keys` see it), the SDK's strict schemas, `deepEqual` in tests — and it is the one way the
 * code writes such a copy, in place of a `...(x === undefined ? {} : { x })` per field.
 */

/** `fields` with every `undefined` value's key left out; each key is optional in the type. */
export type Defined<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

/**
 * The fields whose value is not `undefined` (`null`, `0`, `""` and `false` are kept).
 * @example
 * defined({ limit: 10, cursor: undefined }) // { limit: 10 }
 * const options = { name, ...defined({ timeoutMs, signal }) };
 */
export function defined<T extends object>(fields: T): Defined<T> {
  // for…in, not Object.entries: this runs on the request path, and an object literal has no inherited keys.
  const out: Record<string, unknown> = {};
  for (const key in fields) {
    const value = (fields as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out as Defined<T>;
}
