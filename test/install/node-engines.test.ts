// The README promises Node.js 20.19 or newer, so no package the lockfile installs may ask for more: `npm ci`
// would warn EBADENGINE (it did, for content-type@3.1.1 pulled in by the conformance suite's @octokit/request,
// now pinned to content-type 2 through package.json `overrides`).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as { packages: Record<string, { engines?: unknown }> };
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const promised = /Node\.js (\d+\.\d+) or newer/.exec(readme)?.[1];

type Version = [number, number, number];

function parse(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text
    .replace(/^v/, "")
    .split(".")
    .map((part) => (part === "x" || part === "*" ? 0 : Number(part)));
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Whether `version` satisfies a semver range of the forms engines fields use (`>=`, `>`, `<`, `<=`, `^`, `~`, `||`). */
export function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split("||").some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1")
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => {
        const match = /^(>=|<=|>|<|=|\^|~)?(.+)$/.exec(comparator);
        if (!match) throw new Error(`cannot read the engines range ${JSON.stringify(range)}`);
        const [, op = "=", rest] = match;
        const bound = parse(rest!);
        const c = compare(v, bound);
        if (op === ">=") return c >= 0;
        if (op === ">") return c > 0;
        if (op === "<=") return c <= 0;
        if (op === "<") return c < 0;
        if (op === "^") return c >= 0 && v[0] === bound[0];
        if (op === "~") return c >= 0 && v[0] === bound[0] && v[1] === bound[1];
        if (rest === "*" || rest === "x") return true;
        // A partial version is an x-range: "20" is any 20.x.y, "20.19" any 20.19.y.
        const given = rest!.split(".").filter((part) => part !== "x" && part !== "*").length;
        return v.slice(0, given).every((part, i) => part === bound[i]);
      }),
  );
}

describe("engines", () => {
  it("the README promises a Node.js version", () => {
    assert.equal(promised, "20.19");
  });

  it("every package the lockfile installs runs on the Node.js the README promises", () => {
    const asking: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const engines = entry.engines as { node?: string } | undefined;
      if (typeof engines?.node === "string" && !satisfies(`${promised}.0`, engines.node)) asking.push(`${path} needs node ${engines.node}`);
    }
    assert.deepEqual(asking, []);
  });

  it("reads engines ranges the way npm does", () => {
    assert.equal(satisfies("20.19.0", ">=22"), false);
    assert.equal(satisfies("20.19.0", ">= 18"), true);
    assert.equal(satisfies("20.19.0", "^8.16.0 || ^10.6.0 || >=11.0.0"), true);
    assert.equal(satisfies("20.19.0", "^20.19.0 || ^22.12.0 || >=23"), true);
    assert.equal(satisfies("20.19.0", ">=20.18.1 <21"), true);
    assert.equal(satisfies("20.19.0", "~20.20"), false);
    assert.equal(satisfies("20.19.0", "18 || 20 || >=22"), true);
    assert.equal(satisfies("20.19.0", "18 || >=22"), false);
    assert.equal(satisfies("20.19.0", "20.18"), false);
  });
});
