/**
 * The skills extension on one per-request server (SEP-2640; docs/skills.md): `skills/list` (paged), `skills/get`,
 * `resources/directory/read`, and `resources/read` of every listed file — over the build's skill table, in both
 * protocol eras (2026-07-28 answers carry the caching fields `ttlMs` and `cacheScope`; 2025 answers do not have
 * them). The SDK's `SkillsExtension.attach` wants an `McpServer` and one catalog per server; the host makes a
 * low-level `Server` per request over a per-build table, so it registers the same methods, with the SDK's method
 * names, parameter schemas and result types, here. A file the host did not read itself is checked against its
 * digest and size on every read; one that does not match is refused, never served.
 */
import {
  GetSkillRequestParamsSchema,
  ListSkillsRequestParamsSchema,
  RESOURCES_DIRECTORY_READ_METHOD,
  ReadResourceDirectoryRequestParamsSchema,
  SKILLS_EXTENSION_ID,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
  type GetSkillResult,
  type ListSkillsResult,
  type ReadResourceDirectoryResult,
} from "@modelcontextprotocol/core/ext/skills";
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ReadResourceResult,
  type Result,
  type StandardSchemaV1,
} from "@modelcontextprotocol/server";
import { isMcpHostError, McpHostError } from "../errors.js";
import type { RequestContext, SkillFileContent } from "../extension/types.js";
import type { Logger } from "../logger.js";
import { isTrustedSkill } from "./trusted-skills.js";
import { bytesOf, digestOf } from "./skill-files.js";
import { pageOf } from "./skill-paging.js";
import type { PlacedSkill, SkillFile, SkillTable } from "./skill-table.js";

/** The capability a server serving skills declares (directory reads included), under `capabilities.extensions`. */
export const SKILLS_CAPABILITY = { [SKILLS_EXTENSION_ID]: { directoryRead: true } } as const;

/** The caching fields of a 2026-07-28 answer: nothing is cached across callers (a caller's token may narrow what it sees). */
const CACHE = { ttlMs: 0, cacheScope: "private" } as const;

/** Registers a method outside the spec with its params schema (the SDK's three-argument `setRequestHandler`). */
export type RegisterMethod = (method: string, params: StandardSchemaV1, handler: (params: never) => Result | Promise<Result>) => void;

/** What the methods read: the build's table (read at each request) and the era the server speaks. */
export interface SkillMethodsInput {
  table(): SkillTable;
  era: "legacy" | "modern";
}

/**
 * @example
 * registerSkillMethods(register, { table: () => core.tables.skills, era: info.era });
 */
export function registerSkillMethods(register: RegisterMethod, input: SkillMethodsInput): void {
  const cache = input.era === "modern" ? CACHE : {};
  register(SKILLS_LIST_METHOD, ListSkillsRequestParamsSchema, (params: { cursor?: string }) => {
    const page = pageOf(input.table().listing, params.cursor);
    const result: ListSkillsResult | Omit<ListSkillsResult, "ttlMs" | "cacheScope"> = {
      skills: page.items,
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
      ...cache,
    };
    return result as Result;
  });
  register(SKILLS_GET_METHOD, GetSkillRequestParamsSchema, (params: { uri: string }) => {
    const skill = input.table().skillByUri.get(params.uri);
    if (skill === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No skill is served at ${params.uri} on this selection`);
    const result: GetSkillResult | Omit<GetSkillResult, "ttlMs" | "cacheScope"> = { skill, ...cache };
    return result as Result;
  });
  register(RESOURCES_DIRECTORY_READ_METHOD, ReadResourceDirectoryRequestParamsSchema, (params: { uri: string; cursor?: string }) => {
    const children = input.table().directories.get(params.uri);
    if (children === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${params.uri} is not a directory of a skill served on this selection`);
    const page = pageOf(children, params.cursor);
    const result: ReadResourceDirectoryResult | Omit<ReadResourceDirectoryResult, "ttlMs" | "cacheScope"> = {
      resources: page.items,
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
      ...cache,
    };
    return result as Result;
  });
}

/** The content a served skill's reader gave, checked against the entry when the host did not read the file itself. */
function verified(file: SkillFile, uri: string, content: SkillFileContent, logger: Logger): SkillFileContent {
  if (isTrustedSkill(file.owner.skill)) return content;
  const bytes = bytesOf(content);
  if (bytes.byteLength === file.size && digestOf(bytes) === file.digest) return content;
  const failure = new McpHostError(
    "SKILL_DIGEST_MISMATCH",
    `extension "${file.owner.extension}": skill file ${uri} (toolset "${file.owner.toolset}") does not match the digest and size its entry publishes; it was refused, not served`,
    { extension: file.owner.extension },
  );
  logger.warn(failure.message, { code: failure.code, extension: file.owner.extension, toolset: file.owner.toolset });
  throw new ProtocolError(ProtocolErrorCode.InternalError, `${uri} does not match its published digest; the server refused to serve it`);
}

/**
 * `resources/read` of a skill file, or undefined when `uri` is none (the build's other resources then answer). A
 * skill's directory is not a file: that read is "not found", pointing at `resources/directory/read`.
 * @example
 * const read = await readSkillFile(core.tables.skills, uri, (owner) => contextFor(owner), core.logger);
 */
export async function readSkillFile(
  table: SkillTable,
  uri: string,
  contextOf: (owner: PlacedSkill) => RequestContext,
  logger: Logger,
): Promise<ReadResourceResult | undefined> {
  const file = table.fileByUri.get(uri);
  if (file === undefined) {
    if (table.directories.has(uri)) throw new ResourceNotFoundError(uri, `${uri} is a directory; read it with ${RESOURCES_DIRECTORY_READ_METHOD}`);
    return undefined;
  }
  let content: SkillFileContent;
  try {
    content = await file.owner.skill.read(file.source, contextOf(file.owner));
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    // A coded failure (the gateway's SKILL_DIGEST_MISMATCH for an upstream's file) keeps its code in the log.
    const code = isMcpHostError(error) ? { code: error.code } : {};
    logger.error(`[extension ${file.owner.extension}] reading skill file ${uri} failed: ${(error as Error)?.message ?? String(error)}`, {
      extension: file.owner.extension,
      ...code,
    });
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error in extension "${file.owner.extension}" while reading ${uri}`);
  }
  const checked = verified(file, uri, content, logger);
  const mimeType = checked.mimeType ?? file.mimeType;
  return { contents: ["text" in checked ? { uri, mimeType, text: checked.text } : { uri, mimeType, blob: checked.blob }] };
}
