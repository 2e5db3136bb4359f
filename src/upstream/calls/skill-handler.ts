/**
 * An upstream server's skill, relayed through the host (docs/gateway.md, docs/skills.md): its entry as the upstream
 * publishes it — so its digests are relayed, not recomputed — and a reader that fetches each file from the upstream
 * and checks it against that entry (the registry's `readSkill`, the SDK's `SkillsClient`). A file that fails the check
 * is refused, never served; so is one that holds a deployment secret, which could be neither redacted (its digest
 * would no longer match) nor passed on.
 */
import { McpHostError } from "../../errors.js";
import type { ServedSkill, SkillFileContent } from "../../extension/types.js";
import type { Skill } from "@modelcontextprotocol/client/ext/skills";
import type { ServerCalls } from "./tool-handler.js";

/**
 * @example
 * skills: listing.skills.map((skill) => upstreamSkill(calls, skill))
 */
export function upstreamSkill(calls: ServerCalls, skill: Skill): ServedSkill {
  const { server, registry, redactor } = calls;
  return {
    toolset: server,
    entry: skill,
    read: async (uri, ctx): Promise<SkillFileContent> => {
      let file: Awaited<ReturnType<typeof registry.readSkill>>;
      try {
        file = await registry.readSkill(server, skill, uri, { signal: ctx.signal });
      } catch (error) {
        if ((error as { code?: unknown }).code === "MCP_SERVER_UNREACHABLE" || (error as { code?: unknown }).code === "MCP_CALL_FAILED") calls.unreachable();
        throw error;
      }
      const mimeType = file.mimeType === undefined ? {} : { mimeType: file.mimeType };
      if (file.text === undefined) return { blob: Buffer.from(file.bytes).toString("base64"), ...mimeType };
      if (redactor.redactValue(file.text) !== file.text) {
        throw new McpHostError("SKILL_INVALID", `server "${server}": skill file ${uri} holds one of the deployment's secrets; it was refused, not relayed`, {
          server,
        });
      }
      return { text: file.text, ...mimeType };
    },
  };
}
