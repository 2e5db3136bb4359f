/**
 * ServerSpec: how to reach one upstream MCP server — a command to start (stdio), a Streamable HTTP URL, or a
 * transport the caller builds. The helpers validate at once (a bad spec should fail where it is written, not at
 * first use) and their errors never repeat a URL, which may carry a key. The registry checks the names of the specs
 * it is given again (a spec may be written by hand): each non-blank, no two alike.
 */
import type { Transport } from "@modelcontextprotocol/client";
import { McpHostError } from "../errors.js";
import type { CustomServerSpec, HttpServerOptions, HttpServerSpec, ServerOptions, ServerSpecification, StdioServerOptions, StdioServerSpec } from "./types.js";

function checkName(name: unknown, transport: string): asserts name is string {
  if (typeof name !== "string" || name.trim() === "") {
    throw new McpHostError("MCP_SERVER_NAME_INVALID", `a ${transport} server needs a non-empty name (got ${JSON.stringify(name) ?? String(name)})`);
  }
}

/**
 * Checks the names of the specs one registry is given: every one non-blank (MCP_SERVER_NAME_INVALID) and no two
 * alike (MCP_SERVER_NAME_TAKEN, naming both specs by position and transport, never by URL).
 * @example
 * checkServerNames([ServerSpec.stdio("git", "uvx"), ServerSpec.http("git", "https://x.example/mcp")]); // throws MCP_SERVER_NAME_TAKEN
 */
export function checkServerNames(specs: readonly ServerSpecification[]): void {
  const first = new Map<string, number>();
  specs.forEach((spec, i) => {
    checkName(spec.name, spec.transport);
    const earlier = first.get(spec.name);
    if (earlier !== undefined) {
      const which = (n: number) => `#${n + 1} (${specs[n]!.transport})`;
      throw new McpHostError(
        "MCP_SERVER_NAME_TAKEN",
        `servers ${which(earlier)} and ${which(i)} are both named "${spec.name}"; server names must be unique, so rename one`,
        {
          server: spec.name,
        },
      );
    }
    first.set(spec.name, i);
  });
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Checks an upstream URL: https (http only on loopback), no userinfo, no query string. Errors name the server and
 * the rule, never the URL.
 * @example
 * checkServerUrl("hosted", "https://example.com/mcp/"); // ok
 * checkServerUrl("hosted", "http://example.com/mcp");   // throws MCP_URL_INVALID
 */
export function checkServerUrl(server: string, url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpHostError("MCP_URL_INVALID", `server "${server}": the URL is not a valid absolute URL`, { server });
  }
  const fail = (why: string) => new McpHostError("MCP_URL_INVALID", `server "${server}": the URL ${why}`, { server });
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw fail("must use https");
  if (parsed.protocol === "http:" && !LOOPBACK.test(parsed.hostname)) {
    throw fail("must use https (plain http is allowed only for localhost, 127.0.0.0/8 and [::1])");
  }
  if (parsed.username || parsed.password) throw fail("must not carry a user name or password; put credentials in headers");
  if (parsed.search) throw fail("must not carry a query string; put credentials in headers");
  return parsed;
}

/**
 * Builders for server specs (the one place with positional arguments, mirroring how servers are written down).
 * @example
 * const specs = [
 *   ServerSpec.stdio("git", "uvx", ["mcp-server-git"], { env: { GIT_AUTHOR_NAME: "agent" } }),
 *   ServerSpec.http("hosted", "https://example.com/mcp/", { headers: { "X-Tenant-Id": "acme" } }),
 * ];
 */
export const ServerSpec = {
  /**
   * A server started as a child process, with no shell, a minimal environment, in its own process group.
   * @example
   * ServerSpec.stdio("fs", "npx", ["-y", "@modelcontextprotocol/server-filesystem", "."])
   */
  stdio(name: string, command: string, args: readonly string[] = [], options: StdioServerOptions = {}): StdioServerSpec {
    checkName(name, "stdio");
    if (typeof command !== "string" || command.trim() === "") {
      throw new McpHostError("MCP_TRANSPORT_INVALID", `server "${name}": a stdio server needs a command`, { server: name });
    }
    if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) {
      throw new McpHostError("MCP_TRANSPORT_INVALID", `server "${name}": args must be a list of strings`, { server: name });
    }
    for (const [key, value] of Object.entries(options.env ?? {})) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || typeof value !== "string") {
        throw new McpHostError("MCP_TRANSPORT_INVALID", `server "${name}": env.${key} must be a variable name with a string value`, { server: name });
      }
    }
    return { ...options, name, transport: "stdio", command, args: [...args] };
  },

  /**
   * A Streamable HTTP server; one connection is shared by every call.
   * @example
   * ServerSpec.http("hosted", "https://example.com/mcp/", { headers: { "X-API-Key": key } })
   */
  http(name: string, url: string, options: HttpServerOptions = {}): HttpServerSpec {
    checkName(name, "http");
    checkServerUrl(name, url);
    return { ...options, name, transport: "http", url };
  },

  /**
   * A server reached through a transport you build (called again on every reconnect).
   * @example
   * const [client, server] = InMemoryTransport.createLinkedPair(); await myServer.connect(server);
   * ServerSpec.custom("local", () => client)
   */
  custom(name: string, connect: () => Transport | Promise<Transport>, options: ServerOptions = {}): CustomServerSpec {
    checkName(name, "custom");
    if (typeof connect !== "function") {
      throw new McpHostError("MCP_TRANSPORT_INVALID", `server "${name}": a custom server needs a function that makes its transport`, { server: name });
    }
    return { ...options, name, transport: "custom", connect };
  },
};
