// The RFC 9728 metadata route: the exact document, the same with or without the selection's query (clients
// differ), methods and CORS, settings refused when made — and what the SDK v2 client itself requires of
// `resource` for an MCP URL with a query (its discovery and checkResourceAllowed, run for real).
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import express from "express";
import { checkResourceAllowed, discoverOAuthProtectedResourceMetadata, selectResourceURL, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { customVerifier, protectedResourceMetadata, type ProtectedResourceMetadataOptions } from "../../../src/http/auth/index.js";
import { Cleanup, listen, startProtectedApp } from "../../fixtures/auth/protected-app.js";
import { defined } from "../../../src/defined.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const verifier = customVerifier(async () => ({ subject: "s", clientId: "c", scopes: [], claims: {} }));

async function resourceAt(url: string): Promise<unknown> {
  return ((await (await fetch(url)).json()) as { resource?: unknown }).resource;
}

async function served(metadata: Omit<ProtectedResourceMetadataOptions, "resourcePath">, publicBaseUrl?: string) {
  return startProtectedApp(cleanup, { verifier, metadata, ...defined({ publicBaseUrl }) });
}

describe("protected-resource metadata", () => {
  it("serves the same document with and without the selection's query", async () => {
    const { baseUrl, metadataRequests } = await served({
      authorizationServers: ["http://127.0.0.1:9/"],
      scopesSupported: ["mcp:read", "mcp:admin"],
      resourceName: "Test MCP",
    });
    const expected = {
      resource: `${baseUrl}/mcp`,
      authorization_servers: ["http://127.0.0.1:9/"],
      scopes_supported: ["mcp:read", "mcp:admin"],
      bearer_methods_supported: ["header"],
      resource_name: "Test MCP",
    };
    for (const suffix of ["", "?only=admin", "?toolsets=a,b", "/", "/?a&b"]) {
      const response = await fetch(`${baseUrl}/.well-known/oauth-protected-resource/mcp${suffix}`);
      assert.equal(response.status, 200, suffix);
      assert.equal(response.headers.get("access-control-allow-origin"), "*");
      assert.deepEqual(await response.json(), expected, suffix);
    }
    assert.equal(metadataRequests.length, 5);
  });

  it("answers HEAD and CORS preflight, refuses other methods, and leaves other paths alone", async () => {
    const { baseUrl } = await served({ authorizationServers: ["https://idp.example.test"] });
    const url = `${baseUrl}/.well-known/oauth-protected-resource/mcp`;
    const head = await fetch(url, { method: "HEAD" });
    assert.equal(head.status, 200);
    const preflight = await fetch(url, {
      method: "OPTIONS",
      headers: { origin: "https://app.example.test", "access-control-request-method": "GET", "access-control-request-headers": "mcp-protocol-version" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-headers"), "mcp-protocol-version");
    const post = await fetch(url, { method: "POST" });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get("allow"), "GET, HEAD, OPTIONS");
    assert.equal((await fetch(`${baseUrl}/.well-known/oauth-protected-resource/other`)).status, 404);
    assert.equal((await fetch(`${baseUrl}/.well-known/oauth-protected-resource`)).status, 404);
  });

  it("uses a configured resource verbatim, or the public base URL behind a proxy", async () => {
    const fixed = await served({ authorizationServers: ["https://idp.example.test"], resource: "https://mcp.example.test/mcp" });
    assert.equal(await resourceAt(`${fixed.baseUrl}/.well-known/oauth-protected-resource/mcp`), "https://mcp.example.test/mcp");
    const proxied = await served({ authorizationServers: ["https://idp.example.test"] }, "https://mcp.example.test/tools/");
    assert.equal(await resourceAt(`${proxied.baseUrl}/.well-known/oauth-protected-resource/mcp?only=x`), "https://mcp.example.test/tools/mcp");
  });

  it("serves a router for another MCP path", async () => {
    const app = express();
    app.use(protectedResourceMetadata({ authorizationServers: ["https://idp.example.test"], resourcePath: "/v1/mcp/" }));
    const { baseUrl } = await listen(cleanup, app);
    assert.equal(await resourceAt(`${baseUrl}/.well-known/oauth-protected-resource/v1/mcp`), `${baseUrl}/v1/mcp/`);
  });

  it("refuses bad settings when made", () => {
    const made = (options: unknown) => () => protectedResourceMetadata(options as ProtectedResourceMetadataOptions);
    assert.throws(made({ authorizationServers: [] }), {
      code: "AUTH_CONFIG_INVALID",
      message: "protectedResourceMetadata: `authorizationServers` must list at least one issuer URL",
    });
    assert.throws(made({ authorizationServers: ["http://idp.internal"] }), {
      code: "AUTH_CONFIG_INVALID",
      message:
        "protectedResourceMetadata: `authorizationServers[0]` must use https (plain http is accepted only on loopback, or with allowInsecureHttp: true on a network you trust)",
    });
    assert.throws(made({ authorizationServers: ["https://idp.example.test"], resourcePath: "mcp" }), {
      code: "AUTH_CONFIG_INVALID",
      message: 'protectedResourceMetadata: `resourcePath` must start with "/" (e.g. "/mcp")',
    });
    assert.throws(made({ authorizationServers: ["https://idp.example.test"], resource: "https://mcp.example.test/mcp#x" }), {
      code: "AUTH_CONFIG_INVALID",
      message: "protectedResourceMetadata: `resource` must be an http(s) URL without a fragment",
    });
    assert.throws(made({ authorizationServers: ["https://idp.example.test"], publicBaseUrl: "https://mcp.example.test/?x=1" }), {
      code: "AUTH_CONFIG_INVALID",
      message: "protectedResourceMetadata: `publicBaseUrl` must be a plain http(s) origin with an optional path, without query, fragment or credentials",
    });
  });
});

describe("what the SDK v2 client requires of resource for a URL with a query", () => {
  it("finds our metadata with the query kept and accepts a resource without it", async () => {
    const { baseUrl, mcpUrl, metadataRequests } = await served({ authorizationServers: ["https://idp.example.test"] });
    const serverUrl = mcpUrl("only=admin");
    const metadata = await discoverOAuthProtectedResourceMetadata(serverUrl);
    assert.deepEqual(
      metadataRequests,
      ["/.well-known/oauth-protected-resource/mcp?only=admin"],
      "the SDK client keeps the query when it builds the metadata URL itself",
    );
    assert.equal(metadata.resource, `${baseUrl}/mcp`);
    const provider = {} as OAuthClientProvider;
    assert.equal((await selectResourceURL(serverUrl, provider, metadata))?.href, `${baseUrl}/mcp`);
  });

  it("compares origin and path prefix only, ignoring the query; another path or origin is refused", async () => {
    const { baseUrl, mcpUrl } = await served({ authorizationServers: ["https://idp.example.test"] });
    const requested = mcpUrl("only=admin");
    assert.equal(checkResourceAllowed({ requestedResource: requested, configuredResource: `${baseUrl}/mcp` }), true);
    assert.equal(
      checkResourceAllowed({ requestedResource: requested, configuredResource: `${baseUrl}/mcp?only=other` }),
      true,
      "a query in resource is ignored, so it buys no per-selection check",
    );
    assert.equal(checkResourceAllowed({ requestedResource: requested, configuredResource: `${baseUrl}/` }), true);
    assert.equal(checkResourceAllowed({ requestedResource: requested, configuredResource: `${baseUrl}/other` }), false);
    assert.equal(checkResourceAllowed({ requestedResource: requested, configuredResource: "https://elsewhere.example.test/mcp" }), false);
    const wrong = { resource: `${baseUrl}/other`, authorization_servers: ["https://idp.example.test"] };
    await assert.rejects(selectResourceURL(requested, {} as OAuthClientProvider, wrong), /does not match expected/);
  });
});
