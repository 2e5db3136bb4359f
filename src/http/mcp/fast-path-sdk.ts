/**
 * The SDK versions the fast path may run on (docs/design.md §8): those whose `@modelcontextprotocol/server` passed the
 * differential suite (test/http/sdk-adapter-parity.test.ts, test/http/fast-path-parity.test.ts,
 * test/http/fast-path-auth-parity.test.ts). The fast path builds on the SDK's exported classes, but how
 * they behave together — the revision a connected server binds, what its dispatch answers at once, how an answer is
 * shaped — is the SDK's to change in any release; on a version not listed every request goes through the SDK's
 * entry. test/http/fast-path-parity.test.ts fails when the lock file's SDK is not on the list.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The `@modelcontextprotocol/server` versions the differential suite passed on. */
export const FAST_PATH_SDK_VERSIONS: readonly string[] = ["2.4.0"];

const SDK_PACKAGE = "@modelcontextprotocol/server";

let installed: string | undefined | null = null;

/**
 * The installed `@modelcontextprotocol/server`'s version, read once from its package.json (found upward from the
 * module Node resolves: the package exports no `./package.json`); undefined when it cannot be read.
 * @example
 * installedSdkVersion() // "2.4.0"
 */
export function installedSdkVersion(): string | undefined {
  if (installed !== null) return installed;
  installed = undefined;
  try {
    let folder = dirname(createRequire(import.meta.url).resolve(SDK_PACKAGE));
    for (let up = 0; up < 4 && installed === undefined; up += 1, folder = dirname(folder)) {
      try {
        const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
        if (manifest.name === SDK_PACKAGE && typeof manifest.version === "string") installed = manifest.version;
      } catch {
        // No package.json at this level: one up.
      }
    }
  } catch {
    // Not resolvable from here: unknown, so not on the list.
  }
  return installed;
}

/**
 * Whether the fast path may run on the installed SDK.
 * @example
 * if (!fastPathSdkProven(installedSdkVersion())) logger.info("the fast path is off …");
 */
export function fastPathSdkProven(version: string | undefined): boolean {
  return version !== undefined && FAST_PATH_SDK_VERSIONS.includes(version);
}
