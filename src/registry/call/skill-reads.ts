/**
 * An upstream server's skills (MCP skills extension, SEP-2640), through the SDK's own `SkillsClient`: the entries of
 * every page (an invalid one skipped and reported, not fatal to the others) when the server declares the extension,
 * and one file read and checked against its entry — size, SHA-256 digest and, for a `SKILL.md`, its frontmatter. A
 * file that fails the check is a `SKILL_DIGEST_MISMATCH`, never content: the gateway relays nothing it cannot verify.
 */
import type { Client, RequestOptions } from "@modelcontextprotocol/client";
import { SkillsClient, SkillVerificationError, type Skill } from "@modelcontextprotocol/client/ext/skills";
import { McpHostError } from "../../errors.js";
import type { UpstreamSkillFile, UpstreamSkills } from "../types.js";

/**
 * @example
 * const listed = await listUpstreamSkills(client, leg);
 */
export async function listUpstreamSkills(client: Client, options: RequestOptions): Promise<UpstreamSkills | undefined> {
  const skills = new SkillsClient(client, { skipInvalid: true });
  if (!skills.supported) return undefined;
  const listing = await skills.list(undefined, options);
  return { skills: listing.skills, invalid: listing.invalid.map((i) => ({ ...(i.uri === undefined ? {} : { uri: i.uri }), reason: i.reason })) };
}

/**
 * @example
 * const file = await readUpstreamSkill(client, "runbooks", entry, "skill://on-call/SKILL.md", leg);
 */
export async function readUpstreamSkill(client: Client, server: string, skill: Skill, uri: string, options: RequestOptions): Promise<UpstreamSkillFile> {
  try {
    const file = await new SkillsClient(client).read(skill, uri, options);
    return { bytes: file.bytes, ...(file.text === undefined ? {} : { text: file.text }), ...(file.mimeType === undefined ? {} : { mimeType: file.mimeType }) };
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    throw new McpHostError(
      "SKILL_DIGEST_MISMATCH",
      `server "${server}": skill file ${uri} failed its check against the skill's entry (${error.reason}); it was refused, not relayed`,
      { server, cause: error },
    );
  }
}
