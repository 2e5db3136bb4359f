// JSON Schema formats in linear time (src/linear-formats.ts): each replaced format answers as ajv-formats' own does
// on a corpus of valid and invalid values, every format — replaced or kept — answers its worst inputs at once
// (ajv-formats' `url` is quadratic on them: a megabyte of colons takes minutes), and a RegExp format the engine
// cannot run stops the engine being made, rather than being run by a backtracking one.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { useLinearFormats, type FormatRegistry } from "../src/linear-formats.js";
import { FORMAT_CASES, spelled } from "./helpers/catastrophic-patterns.js";

type Check = (value: string) => boolean;

/** What ajv does with a format definition: a RegExp is tested, a function called, an object's `validate` used. */
function checkOf(format: unknown): Check {
  if (format instanceof RegExp) return (value) => format.test(value);
  if (typeof format === "function") return format as Check;
  if (typeof format === "object" && format !== null && "validate" in format) return checkOf((format as { validate: unknown }).validate);
  return () => true;
}

function linearRegistry(): FormatRegistry {
  const registry: FormatRegistry = {
    formats: { ...fullFormats },
    addFormat(name, format) {
      registry.formats[name] = format;
    },
  };
  useLinearFormats(registry);
  return registry;
}

const CORPUS = [
  "",
  "P",
  "PT",
  "P1D",
  "PT1H",
  "P1Y2M3DT4H5M6S",
  "P1W",
  "P1WT1H",
  "PT1.5S",
  "P1DT",
  "example.com",
  "a",
  "a.b",
  "-a.com",
  "a-.com",
  `${"a".repeat(63)}.com`,
  `${"a".repeat(64)}.com`,
  `${`${"a".repeat(60)}.`.repeat(4)}abc`,
  `${`${"a".repeat(60)}.`.repeat(4)}abcdefghijklm`,
  `${`${"a".repeat(61)}.`.repeat(4)}a.`,
  "http://example.com",
  "https://user:pw@example.com:8080/path?q=1#f",
  "http://10.0.0.1",
  "http://100.0.0.1/",
  "http://172.16.0.1",
  "http://172.32.0.1",
  "http://192.168.1.1",
  "http://169.254.1.1",
  "http://127.0.0.1",
  "http://8.8.8.8",
  "ftp://a.bc",
  "http://localhost",
  "http://例え.テスト",
  "HTTP://EXAMPLE.COM",
  "mailto:a@b.c",
  "urn:isbn:123",
  "http://[::1]/",
  "//a/b",
  "a/b",
  "foo",
  "a@b.co",
  "a.b@c.d",
  "A@B.CO",
  "x@y",
  "1.2.3.4",
  "256.1.1.1",
  "::1",
  "2001:db8::1",
  "550e8400-e29b-41d4-a716-446655440000",
  "550E8400-E29B-41D4-A716-446655440000",
  "/a/b~0",
  "/a~2",
  "#/a",
  "0/a",
  "1#",
  "01",
  "http://a.b/{x}",
  "{+x}",
  "abc{",
  "2020-01-01",
  "2020-02-30",
  "2020-01-01T00:00:00Z",
  "12:00:00Z",
  "QUJD",
  "a(b",
  "a b",
];

describe("formats in linear time", () => {
  const linear = linearRegistry();
  const replaced = Object.keys(fullFormats).filter((name) => linear.formats[name] !== (fullFormats as Record<string, unknown>)[name]);

  it("replaces every format ajv-formats checks with a RegExp, and uri", () => {
    assert.deepEqual(replaced.sort(), [
      "duration",
      "email",
      "hostname",
      "ipv4",
      "ipv6",
      "json-pointer",
      "json-pointer-uri-fragment",
      "relative-json-pointer",
      "uri",
      "uri-reference",
      "uri-template",
      "url",
      "uuid",
    ]);
  });

  it("answers as ajv-formats' own check does, on a corpus of valid and invalid values", () => {
    const differ: string[] = [];
    for (const name of replaced) {
      const [original, mine] = [checkOf((fullFormats as Record<string, unknown>)[name]), checkOf(linear.formats[name])];
      for (const value of CORPUS) if (original(value) !== mine(value)) differ.push(`${name} ${JSON.stringify(value)}: ${original(value)}`);
    }
    assert.deepEqual(differ, []);
  });

  it("answers each format's worst inputs at once, the kept formats included", { timeout: 20_000 }, () => {
    const kept: Array<[string, string]> = [
      ["date", "1".repeat(100_000)],
      ["time", `12:00:00.${"1".repeat(100_000)}x`],
      ["date-time", `2020-01-01T12:00:00.${"1".repeat(100_000)}x`],
      ["iso-time", `12:00:00.${"1".repeat(100_000)}x`],
      ["iso-date-time", `2020-01-01 12:00:00.${"1".repeat(100_000)}x`],
      ["byte", `${"AAAA".repeat(100_000)}!`],
      ["byte", `${"AAA\n".repeat(50_000)}AAA`], // it reads the value line by line (the m flag): every line wrong
      ["regex", `${"a".repeat(100_000)}\\Z`],
    ];
    const cases: Array<[string, string]> = [...FORMAT_CASES.map((f): [string, string] => [f.format, spelled(f.attack)]), ...kept];
    for (const [name, value] of cases) assert.equal(checkOf(linear.formats[name])(value), false, name);
    for (const f of FORMAT_CASES) assert.equal(checkOf(linear.formats[f.format])(f.match), true, f.format);
  });

  it("refuses to make an engine with a RegExp format it cannot run in linear time", () => {
    const registry: FormatRegistry = { formats: { odd: /^(?=a)a$/ }, addFormat: () => undefined };
    assert.throws(() => useLinearFormats(registry), /it uses a lookahead/);
  });
});
