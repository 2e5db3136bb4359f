/**
 * How a wrong value is shown in an error message: its kind, and the value itself only when it is short and
 * harmless (a number, a boolean, a short string). Used wherever a message says "got …".
 */

/**
 * @example
 * describeValue(undefined) // "undefined"
 * describeValue("x")       // 'the string "x"'
 * describeValue([1])       // "an array"
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  if (typeof value === "string") return value.length === 0 ? "an empty string" : `the string ${JSON.stringify(value.slice(0, 60))}`;
  if (typeof value === "object") return "an object";
  return `${typeof value === "number" ? "the number" : `a ${typeof value}`} ${String(value)}`;
}
