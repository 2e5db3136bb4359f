/**
 * The JSON Schema validator each SDK client is given. The SDK's `Client` would otherwise check a tool's result against
 * its outputSchema with its own ajv, whose patterns backtrack. The registry does that check itself
 * (call/structured-output.ts) and hands the SDK no outputSchema, so this is the one left for anything the SDK
 * validates on its own: the same linear engine, and a pattern it cannot run makes the schema fail to compile.
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/client";
import { type AjvLike, type Dialect, dialectOf, linearAjv } from "../schema-engine.js";

/**
 * @example
 * new Client(info, { jsonSchemaValidator: new LinearSchemaValidator() })
 */
export class LinearSchemaValidator implements jsonSchemaValidator {
  /** One engine per draft, made on first use (most connections never validate anything here). */
  private readonly engines = new Map<Dialect, AjvLike>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const dialect = dialectOf(schema as Record<string, unknown>);
    let ajv = this.engines.get(dialect);
    if (!ajv) {
      ajv = linearAjv(dialect, { allErrors: true });
      this.engines.set(dialect, ajv);
    }
    const engine = ajv;
    const validate = engine.compile(schema as Record<string, unknown>);
    return (input) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: engine.errorsText(validate.errors) };
  }
}
