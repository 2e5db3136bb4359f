/**
 * The published MCP Server Card schema (vendored in test/fixtures/server-card/, its source and commit in the README
 * there), compiled once with ajv: a card mcp-host serves must validate against `$defs/ServerCard` as published.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const schema = JSON.parse(readFileSync(new URL("../fixtures/server-card/schema.json", import.meta.url), "utf8"));
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const validateCard = ajv.compile({ ...schema, $ref: "#/$defs/ServerCard" });

/** Asserts a document is a valid server card, naming every violation. */
export function assertValidCard(card: unknown): void {
  assert.equal(validateCard(card), true, JSON.stringify(validateCard.errors, null, 2));
}

/** True when the schema accepts the document (for a test that the check can fail). */
export function isValidCard(card: unknown): boolean {
  return validateCard(card) === true;
}
