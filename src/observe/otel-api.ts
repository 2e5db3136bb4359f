/**
 * `@opentelemetry/api`, loaded on first use (issue 28: every process paid ~15 ms at start to load it, though a
 * deployment without an OpenTelemetry SDK never makes a span). `otelRegistered()` tells without loading it whether
 * anything registered with the API: a tracer provider, a propagator or a context manager is kept on one global, under
 * `Symbol.for("opentelemetry.js.api.<major>")`, whichever copy of the API registered it.
 */
import { createRequire } from "node:module";

type OtelApi = typeof import("@opentelemetry/api");

let api: OtelApi | undefined;

/** Where every copy of the API's major version 1 keeps what was registered with it. */
const GLOBAL_KEY = Symbol.for("opentelemetry.js.api.1");

/**
 * The API, loaded the first time it is asked for.
 * @example
 * otel().context.with(ambient, next)
 */
export function otel(): OtelApi {
  api ??= createRequire(import.meta.url)("@opentelemetry/api") as OtelApi;
  return api;
}

/**
 * True once anything registered with the API (an SDK, a propagator, a context manager); until then no span can go
 * anywhere and no context can be carried, so tracing has nothing to do.
 * @example
 * if (!otelRegistered()) return false;
 */
export function otelRegistered(): boolean {
  return (globalThis as Record<symbol, unknown>)[GLOBAL_KEY] !== undefined;
}
