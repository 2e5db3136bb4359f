#!/usr/bin/env node
// The public API report (issue 22): one `api/<entry>.api.md` per package entry point, written by
// @microsoft/api-extractor from the built declarations in dist/. `node scripts/api-report.mjs` fails when an
// entry's API differs from its committed report (npm test runs it); `--update` rewrites the reports after an
// intended change, to be committed with it. Run after the build.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const root = fileURLToPath(new URL("..", import.meta.url));
const update = process.argv.includes("--update");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** Entry name for a report file: "." is the root (`mcp-host`), "./host" is `host`. */
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === "object" && target.types !== undefined)
  .map(([subpath, target]) => ({ name: subpath === "." ? "index" : subpath.slice(2), types: join(root, target.types) }));

/**
 * Types a public signature names but no entry exports: a user could not name them. Each one here is allowed for the
 * reason given; any other fails the check (api-extractor's ae-forgotten-export, across all entries).
 */
const UNEXPORTED_ALLOWED = {
  ServingLayer: "McpHost's port to its HTTP layer and stdio bridge, keyed by a symbol no entry exports (@internal)",
  HostServing: "what that port answers (@internal)",
  SelectionEndpoints: "HostApp.endpoints, the HTTP layer's own table (@internal; tests read its sessions)",
  SessionSubscriptions: "ServeRequestInfo.subscriptions, the host's own record of a legacy session's subscriptions (@internal)",
  FleetEvents: "Fleet.events, what createHostApp plugs in (@internal)",
  FleetRate: "Fleet.rate, what createHostApp plugs in (@internal)",
  FleetClaims: "Fleet.claims, what the command hands the host as requestStateClaims (@internal)",
  FleetTasks: "Fleet.tasks, what the command hands the host as tasks.store (@internal)",
  TaskBoard: "McpHost.tasks, what the HTTP layer reads for metrics, the operator page and listen streams (@internal)",
  HostTracing: "Observability.tracing, what the HTTP layer and the gateway start spans with (@internal)",
  RequestRates: "Observability.rates, the operator page's counters (@internal)",
  authObject: "the config's types are inferred from its zod schema, which stays internal (mcp-host/config validates)",
  bearerAuth: "a schema of the config's auth section, named by the inferred AuthConfig type (the auth entry's bearerAuth is a function of the same name)",
  oauthAuth: "a schema of the config's auth section, named by the inferred AuthConfig type",
  customAuth: "a schema of the config's auth section, named by the inferred AuthConfig type",
  deploymentConfigSchema: "the config file's zod schema, named by the inferred DeploymentConfig type",
};

const scratch = mkdtempSync(join(tmpdir(), "mcp-host-api-"));
let failed = 0;
/** Symbols an entry's signatures name without the entry exporting them, by entry. */
const unexportedBy = new Map();
try {
  for (const entry of entries) {
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: entry.types,
        compiler: { tsconfigFilePath: join(root, "tsconfig.build.json") },
        apiReport: { enabled: true, reportFileName: `${entry.name}.api.md`, reportFolder: join(root, "api"), reportTempFolder: scratch },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // The report is the point; doc-comment style is Biome's and the conventions' business, not this check's.
          extractorMessageReporting: {
            default: { logLevel: "none" },
            "ae-missing-release-tag": { logLevel: "none" },
            "ae-forgotten-export": { logLevel: "warning", addToApiReportFile: false },
          },
          tsdocMessageReporting: { default: { logLevel: "none" } },
          compilerMessageReporting: { default: { logLevel: "warning" } },
        },
      },
      configObjectFullPath: join(root, "api", "api-extractor.json"),
      packageJsonFullPath: join(root, "package.json"),
    });
    const result = Extractor.invoke(config, {
      localBuild: update,
      showVerboseMessages: false,
      messageCallback: (message) => {
        if (message.messageId === "ae-forgotten-export") {
          const symbol = /The symbol "([^"]+)"/.exec(message.text)?.[1];
          if (symbol !== undefined) unexportedBy.set(symbol, [...(unexportedBy.get(symbol) ?? []), entry.name]);
          message.handled = true;
          return; // judged across all entries below
        }
        if (message.logLevel === "warning" || message.logLevel === "error") console.error(`api-report ${entry.name}: ${message.text}`);
        message.handled = true;
      },
    });
    const changed = result.apiReportChanged;
    if (!update && changed) {
      failed++;
      console.error(
        `api-report: the public API of ${entry.name === "index" ? "mcp-host" : `mcp-host/${entry.name}`} changed; ` +
          `see the difference between api/${entry.name}.api.md and ${join(scratch, `${entry.name}.api.md`)}, then run \`node scripts/api-report.mjs --update\` and commit the report with the change.`,
      );
    } else console.log(`api-report: ${entry.name}${update && changed ? " (report updated)" : ""} ok`);
  }
  // A symbol one entry names and another exports is fine (a type import loads nothing); one no entry exports is not.
  const exported = new Set();
  for (const entry of entries) {
    const temp = join(scratch, `${entry.name}.api.md`);
    const report = readFileSync(existsSync(temp) ? temp : join(root, "api", `${entry.name}.api.md`), "utf8");
    for (const m of report.matchAll(/^export (?:declare )?(?:abstract )?(?:type|interface|class|function|const|enum|namespace) ([A-Za-z_$][\w$]*)/gm))
      exported.add(m[1]);
    for (const m of report.matchAll(/^export \{([^}]*)\}/gm))
      for (const name of m[1].split(","))
        exported.add(
          name
            .trim()
            .split(/\s+as\s+/)
            .pop(),
        );
  }
  for (const [symbol, names] of [...unexportedBy].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (exported.has(symbol) || symbol in UNEXPORTED_ALLOWED) continue;
    failed++;
    console.error(
      `api-report: ${names.map((n) => (n === "index" ? "mcp-host" : `mcp-host/${n}`)).join(", ")} name the type "${symbol}" in a public signature, but no entry exports it: export it (a type export loads nothing), or keep it out of the signature.`,
    );
  }
} finally {
  if (failed === 0) rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed === 0 ? 0 : 1);
