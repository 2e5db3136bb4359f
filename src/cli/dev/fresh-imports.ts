/**
 * Lets `mcp-host dev` read a changed extension again. Node caches every ES module by URL and has no way to forget
 * one, so the dev loop imports the extension's entry under a new version (`?mcp-host-dev=N`), and this resolve
 * hook carries that version on to every module the entry imports from inside the project folder — so a change to
 * any of the extension's own files is seen, while its dependencies (node_modules) load once.
 */
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import { DEV_VERSION_PARAM } from "../../host/loading/load.js";

const HOOK = `
let root = "";
const PARAM = ${JSON.stringify(DEV_VERSION_PARAM)};
export function initialize(data) { root = data.root; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const parent = context.parentURL ? new URL(context.parentURL) : undefined;
  const version = parent?.searchParams.get(PARAM);
  if (!version || !resolved.url.startsWith(root) || resolved.url.includes("/node_modules/")) return resolved;
  const url = new URL(resolved.url);
  url.searchParams.set(PARAM, version);
  return { ...resolved, url: url.href };
}
`;

/**
 * Registers the hook for the project at `folder` (once per process).
 * @example
 * versionProjectImports("/home/me/my-extension");
 */
export function versionProjectImports(folder: string): void {
  const root = pathToFileURL(folder.endsWith("/") ? folder : `${folder}/`).href;
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`, { data: { root } });
}
