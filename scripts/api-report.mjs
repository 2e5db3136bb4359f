#!/usr/bin/env node
// The public API report (issue 22): one `api/<entry>.api.md` per package entry point, written by
// @microsoft/api-extractor from the built declarations in dist/. `node scripts/api-report.mjs` fails when an
// entry's API differs from its committed report (npm test runs it); `--update` rewrites the reports after an
// intended change, to be committed with it. Run after the build.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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

const scratch = mkdtempSync(join(tmpdir(), "mcp-host-api-"));
let failed = 0;
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
          extractorMessageReporting: { default: { logLevel: "none" }, "ae-missing-release-tag": { logLevel: "none" } },
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
} finally {
  if (failed === 0) rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed === 0 ? 0 : 1);
