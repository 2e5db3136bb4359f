// The text plugin's tools and prompt through a real host and SDK client: the exact list, both schema forms,
// exact results for fixed texts (Unicode-aware counts, transliterating slugs, case conversion, unified diffs with
// the no-newline marker, regex groups and replacement), and the isError answers for bad input — including a
// catastrophically backtracking pattern, which is stopped at its CPU budget instead of freezing the server.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { diffLinesInput } from "../../../plugins/text/src/diff-lines.js";
import textExtension from "../../../plugins/text/src/index.js";
import { slugifyInput } from "../../../plugins/text/src/slugify.js";
import { callError } from "../../helpers/kit.js";
import { callStructured, listedNames, pluginHost, rejection, withClient } from "../../helpers/plugin-kit.js";

const TEXT_TOOLS = ["change_case", "diff_lines", "list_server_toolsets", "regex_test", "slugify", "text_stats"];

async function session<T>(era: "legacy" | "modern", body: Parameters<typeof withClient<T>>[3]): Promise<T> {
  const { host } = await pluginHost([textExtension]);
  return withClient(host, "only=text", era, body);
}

for (const era of ["legacy", "modern"] as const) {
  describe(`text tools (${era} era)`, () => {
    it("lists its five tools with JSON Schema and zod inputs, output schemas and read-only annotations", async () => {
      await session(era, async (client) => {
        assert.deepEqual(await listedNames(client), { tools: TEXT_TOOLS, prompts: ["rewrite"], resources: [], templates: [] });
        const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
        assert.deepEqual(tools.get("slugify")!.inputSchema, slugifyInput);
        assert.deepEqual(tools.get("diff_lines")!.inputSchema, diffLinesInput);
        const changeCase = tools.get("change_case")!.inputSchema as unknown as { required: string[]; properties: { to: { enum: string[] } } };
        assert.deepEqual(changeCase.required, ["text", "to"]);
        assert.deepEqual(changeCase.properties.to.enum, ["camel", "pascal", "snake", "kebab", "constant", "dot", "title", "sentence", "upper", "lower"]);
        for (const name of TEXT_TOOLS.filter((n) => n !== "list_server_toolsets")) {
          const tool = tools.get(name)!;
          assert.equal((tool.outputSchema as { type?: string } | undefined)?.type, "object", `${name} output schema`);
          assert.deepEqual(
            [tool.annotations?.readOnlyHint, tool.annotations?.idempotentHint, tool.annotations?.openWorldHint],
            [true, true, false],
            `${name} annotations`,
          );
        }
      });
    });

    it("text_stats counts what a reader sees: emoji and accents as one character, contractions as one word", async () => {
      await session(era, async (client) => {
        assert.deepEqual(await callStructured(client, "text_stats", { text: "Hello, world! Don't panic.\n\nNaïve café 👍🏽 is here.\nLast line" }), {
          characters: 59,
          characters_excluding_spaces: 48,
          words: 10,
          sentences: 4,
          paragraphs: 2,
          lines: 4,
          average_word_length: 4.3,
          reading_time_seconds: 3,
          reading_time: "3 s",
        });
        const long = await callStructured(client, "text_stats", { text: "word ".repeat(500), words_per_minute: 200 });
        assert.deepEqual([long.words, long.reading_time_seconds, long.reading_time], [500, 150, "2 min 30 s"]);
        const japanese = await callStructured(client, "text_stats", { text: "東京は日本の首都です。", locale: "ja" });
        assert.deepEqual([japanese.characters, japanese.words, japanese.sentences], [11, 6, 1]);
      });
    });

    it("text_stats refuses a malformed locale tag", async () => {
      await session(era, async (client) => {
        assert.equal(
          await callError(client, "text_stats", { text: "x", locale: "not a locale!" }),
          'locale "not a locale!" is not a valid BCP 47 language tag (for example "en", "de-CH", "ja")',
        );
      });
    });

    it("slugify strips accents, spells out letters decomposition misses, and cuts at a word boundary", async () => {
      await session(era, async (client) => {
        assert.deepEqual(await callStructured(client, "slugify", { text: "Crème Brûlée — 10 Tips!" }), { slug: "creme-brulee-10-tips", length: 20 });
        assert.deepEqual(await callStructured(client, "slugify", { text: "Ærøskøbing Straße & Co.", separator: "_" }), {
          slug: "aeroskobing_strasse_and_co",
          length: 26,
        });
        assert.deepEqual(await callStructured(client, "slugify", { text: "The quick brown fox jumps over", max_length: 17 }), {
          slug: "the-quick-brown",
          length: 15,
        });
        assert.deepEqual(await callStructured(client, "slugify", { text: "Keep CASE", lowercase: false }), { slug: "Keep-CASE", length: 9 });
        assert.equal(
          await callError(client, "slugify", { text: "!!!" }),
          'nothing to make a slug from: "!!!" has no letters or digits that survive transliteration',
        );
        assert.match(await callError(client, "slugify", { text: "x", separator: "." }), /Invalid arguments for tool "slugify"/);
      });
    });

    it("change_case converts identifiers line by line and keeps prose punctuation", async () => {
      await session(era, async (client) => {
        const text = "XMLHttpRequest user_id\nthe lord of the rings";
        const expected: Record<string, string> = {
          camel: "xmlHttpRequestUserId\ntheLordOfTheRings",
          pascal: "XmlHttpRequestUserId\nTheLordOfTheRings",
          snake: "xml_http_request_user_id\nthe_lord_of_the_rings",
          kebab: "xml-http-request-user-id\nthe-lord-of-the-rings",
          constant: "XML_HTTP_REQUEST_USER_ID\nTHE_LORD_OF_THE_RINGS",
          dot: "xml.http.request.user.id\nthe.lord.of.the.rings",
        };
        for (const [to, result] of Object.entries(expected)) assert.deepEqual(await callStructured(client, "change_case", { text, to }), { result }, to);
        assert.deepEqual(await callStructured(client, "change_case", { text: "the lord of the rings. a tale of two cities", to: "title" }), {
          result: "The Lord of the Rings. A Tale of Two Cities",
        });
        assert.deepEqual(await callStructured(client, "change_case", { text: "NASA buys an iPhone", to: "title" }), { result: "NASA Buys an iPhone" });
        assert.deepEqual(await callStructured(client, "change_case", { text: "HELLO WORLD. how are you? fine", to: "sentence" }), {
          result: "Hello world. How are you? Fine",
        });
      });
    });

    it("diff_lines gives a unified diff with hunks, counts and the no-newline marker", async () => {
      await session(era, async (client) => {
        const before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n";
        const after = "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n";
        assert.deepEqual(await callStructured(client, "diff_lines", { before, after, before_label: "v1.txt", after_label: "v2.txt" }), {
          identical: false,
          added: 2,
          removed: 1,
          hunks: 2,
          diff: "--- v1.txt\n+++ v2.txt\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -9,3 +9,4 @@\n i\n j\n k\n+l\n",
        });
        assert.equal((await callStructured(client, "diff_lines", { before, after, context: 10 })).hunks, 1);
        assert.deepEqual(await callStructured(client, "diff_lines", { before: "a\nb", after: "a\nb\n" }), {
          identical: false,
          added: 1,
          removed: 1,
          hunks: 1,
          diff: "--- before\n+++ after\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
        });
        assert.deepEqual(await callStructured(client, "diff_lines", { before: "", after: "x\ny\n" }), {
          identical: false,
          added: 2,
          removed: 0,
          hunks: 1,
          diff: "--- before\n+++ after\n@@ -0,0 +1,2 @@\n+x\n+y\n",
        });
        assert.deepEqual(await callStructured(client, "diff_lines", { before: "a  b\n", after: "a b \n", ignore_whitespace: true }), {
          identical: true,
          added: 0,
          removed: 0,
          hunks: 0,
          diff: "",
        });
      });
    });

    it("regex_test lists matches with numbered and named groups and applies a replacement", async () => {
      await session(era, async (client) => {
        assert.deepEqual(
          await callStructured(client, "regex_test", {
            pattern: "(?<year>\\d{4})-(\\d{2})",
            text: "2024-01 and 2025-12",
            replace_with: "$2/$<year>",
            flags: "g",
          }),
          {
            matched: true,
            count: 2,
            truncated: false,
            matches: [
              { match: "2024-01", index: 0, captures: ["2024", "01"], groups: { year: "2024" } },
              { match: "2025-12", index: 12, captures: ["2025", "12"], groups: { year: "2025" } },
            ],
            replaced: "01/2024 and 12/2025",
          },
        );
        const first = await callStructured(client, "regex_test", { pattern: "(x)?y", text: "y y y", max_matches: 2, replace_with: "z" });
        assert.deepEqual(first, {
          matched: true,
          count: 2,
          truncated: true,
          matches: [
            { match: "y", index: 0, captures: [null], groups: null },
            { match: "y", index: 2, captures: [null], groups: null },
          ],
          replaced: "z y y",
        });
        assert.deepEqual(await callStructured(client, "regex_test", { pattern: "cat", flags: "i", text: "dog" }), {
          matched: false,
          count: 0,
          truncated: false,
          matches: [],
        });
      });
    });

    it("regex_test reports an invalid pattern and bad flags", async () => {
      await session(era, async (client) => {
        assert.equal(
          await callError(client, "regex_test", { pattern: "(a|b", text: "" }),
          "Invalid regular expression: /(a|b/: Unterminated group; check the pattern's escaping (it is written without slashes) and the flags",
        );
        assert.match(
          await callError(client, "regex_test", { pattern: "a", flags: "x", text: "" }),
          /flags may only contain the letters d, g, i, m, s, u, v and y/,
        );
      });
    });
  });
}

describe("regex_test and catastrophic backtracking", () => {
  it("stops a pattern that backtracks catastrophically at its CPU budget, and the server keeps answering", async () => {
    await session("legacy", async (client) => {
      assert.equal(
        await callError(client, "regex_test", { pattern: "(a+)+$", text: `${"a".repeat(40)}!` }),
        'tool "regex_test" used more than its 1000 ms of CPU and was stopped',
      );
      assert.deepEqual(await callStructured(client, "slugify", { text: "still here" }), { slug: "still-here", length: 10 });
    });
  });
});

describe("the rewrite prompt", () => {
  it("declares its arguments and puts the measured length and the style into the request", async () => {
    await session("legacy", async (client) => {
      const [prompt] = (await client.listPrompts()).prompts;
      assert.deepEqual(
        prompt!.arguments!.map((a) => [a.name, a.required ?? false]),
        [
          ["text", true],
          ["style", false],
          ["audience", false],
          ["max_words", false],
        ],
      );
      const result = await client.getPrompt({
        name: "rewrite",
        arguments: { text: "We are pleased to announce that the new office opens on 3 March.", style: "friendly", audience: "staff", max_words: "20" },
      });
      assert.deepEqual(result.messages, [
        {
          role: "user",
          content: {
            type: "text",
            text:
              "Rewrite the text below. Style: warm and conversational, still clear.\nAudience: staff.\n" +
              "The original has 13 words in 1 sentence; the rewrite must have at most 20 words.\n" +
              "Keep every fact, name and number. Answer with the rewritten text only.\n\n---\nWe are pleased to announce that the new office opens on 3 March.\n---",
          },
        },
      ]);
    });
  });

  it("completes the style and refuses an unknown one as invalid params", async () => {
    await session("modern", async (client) => {
      const complete = async (value: string) =>
        (await client.complete({ ref: { type: "ref/prompt", name: "rewrite" }, argument: { name: "style", value } })).completion.values;
      assert.deepEqual(
        [await complete("f"), await complete("p"), await complete("")],
        [
          ["formal", "friendly"],
          ["plain", "persuasive"],
          ["plain", "concise", "formal", "friendly", "technical", "persuasive"],
        ],
      );
      const { code, message } = await rejection(client.getPrompt({ name: "rewrite", arguments: { text: "x", style: "pirate" } }));
      assert.deepEqual([code, message], [-32602, 'style "pirate" is not one of plain, concise, formal, friendly, technical, persuasive']);
    });
  });
});
