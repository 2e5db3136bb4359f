/**
 * The `Mcp-Param-*` headers of a 2026-07-28 `tools/call` (SEP-2243, docs/serving.md): a tool whose input schema marks
 * an argument `x-mcp-header: Name` has clients mirror that argument into `Mcp-Param-Name`, so a proxy can route on
 * it without reading the body — which only works if the server refuses a request whose header and body disagree.
 * The SDK makes this check only for an `McpServer` it serves itself and keeps its helpers inside the package; the
 * host serves a low-level `Server` per request, so the declarations are read here once per build (with the tool's
 * wire schema) and each call is checked against them before it reaches the SDK.
 */

/** One argument a tool mirrors into a header: where it sits in `arguments`, the header's name, its JSON type. */
export interface ParamHeader {
  readonly path: readonly string[];
  /** The name after `Mcp-Param-`, as the schema spells it. */
  readonly name: string;
  readonly type: string | undefined;
}

/** An HTTP token (RFC 9110): what a header name may be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The declarations of a tool's input schema: properties reached through `properties` alone (the only places the SEP
 * allows the mark), each with a token for a name. Read once per build.
 * @example
 * paramHeadersOf({ type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } })
 * // [{ path: ["region"], name: "Region", type: "string" }]
 */
export function paramHeadersOf(schema: unknown): ParamHeader[] {
  const found: ParamHeader[] = [];
  const visit = (node: unknown, path: string[]) => {
    if (!isObject(node)) return;
    const name = node["x-mcp-header"];
    if (path.length > 0 && typeof name === "string" && TOKEN.test(name))
      found.push({ path, name, type: typeof node.type === "string" ? node.type : undefined });
    if (isObject(node.properties)) for (const [key, child] of Object.entries(node.properties)) visit(child, [...path, key]);
  };
  visit(schema, []);
  return found;
}

/** A primitive argument as its header carries it; undefined for a value no header stands for. */
function asHeaderText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value);
  return undefined;
}

/** A header value decoded: the text inside `=?base64?…?=` (canonical base64 of UTF-8), else the value as it is. */
function decoded(value: string): string | undefined {
  if (!(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END) && value.length >= SENTINEL_START.length + SENTINEL_END.length)) return value;
  const base64 = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (!CANONICAL_BASE64.test(base64)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(base64, "base64"));
  } catch {
    return undefined;
  }
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * Why a call's headers disagree with its arguments, as `{ header, problem }`, or undefined when they agree. An
 * argument that is absent or null needs no header (one sent anyway is ignored); a number is compared as a number.
 * @example
 * paramHeaderMismatch(declarations, { region: "eu" }, (name) => req.headers[name.toLowerCase()])
 */
export function paramHeaderMismatch(
  declarations: readonly ParamHeader[],
  args: unknown,
  headerOf: (name: string) => string | undefined,
): { header: string; problem: string } | undefined {
  for (const declaration of declarations) {
    const header = `Mcp-Param-${declaration.name}`;
    const body = valueAt(args, declaration.path);
    if (body === undefined || body === null) continue;
    const text = asHeaderText(body);
    if (text === undefined) continue;
    const where = `${declaration.path.join(".")}=${JSON.stringify(body)}`;
    const sent = headerOf(header);
    if (sent === undefined) return { header, problem: `the body carries ${where} but the ${header} header is absent` };
    const value = decoded(sent);
    if (value === undefined) return { header, problem: `the ${header} header holds a =?base64?…?= value that is not canonical base64 of UTF-8 text` };
    const numeric = (declaration.type === "integer" || declaration.type === "number") && typeof body === "number" && DECIMAL.test(value);
    if (numeric ? Number(value) !== body : value !== text)
      return { header, problem: `the ${header} header says ${JSON.stringify(value)} but the body carries ${where}` };
  }
  return undefined;
}
