// A node:test reporter for `npm test`'s summary (scripts/test.mjs): one JSON line per test that failed or was
// cancelled — its file, its full title (describe > it) and why (a failure, a timeout, cancelled by a parent that
// timed out) — and one per file that failed as a whole. The TAP log keeps every detail; the summary names them all.
// Results arrive children first: a failed test's enclosing titles are added as its parents complete.

const QUIET = new Set(["subtestsFailed"]);

export default async function* failuresReporter(source) {
  /** Per file: failed tests still missing some enclosing title, with the nesting level of the next one they need. */
  const open = new Map();
  const done = [];
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { name, nesting, file = "" } = event.data;
    const waiting = open.get(file) ?? [];
    for (const entry of waiting) {
      if (entry.needs === nesting) {
        entry.titles.unshift(name);
        entry.needs -= 1;
      }
    }
    open.set(
      file,
      waiting.filter((entry) => entry.needs >= 0),
    );
    for (const entry of waiting.filter((e) => e.needs < 0)) done.push(entry);
    if (event.type !== "test:fail") continue;
    const failureType = event.data.details?.error?.failureType ?? "unknown";
    if (QUIET.has(failureType)) continue;
    const error = event.data.details?.error;
    const reason = String(error?.cause?.message ?? error?.message ?? "")
      .split("\n")[0]
      .slice(0, 300);
    const entry = { file, titles: [name], needs: nesting - 1, failureType, reason, wholeFile: name === file };
    if (entry.needs < 0 || entry.wholeFile) done.push(entry);
    else open.get(file).push(entry);
  }
  for (const waiting of open.values()) done.push(...waiting);
  for (const entry of done) {
    yield `${JSON.stringify({ file: entry.file, title: entry.wholeFile ? "" : entry.titles.join(" > "), failureType: entry.failureType, reason: entry.reason })}\n`;
  }
}
