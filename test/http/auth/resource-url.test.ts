// The URLs auth advertises, computed from a request's Host, protocol and target (or a configured public base):
// the metadata URL keeps the query, the resource does not, odd request targets cannot redirect either elsewhere,
// and a request without a usable Host is a bad request rather than a URL made up from nothing.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { protectedResourceMetadataUrl, publicRequestUrl, publicResourceUrl, type AuthRequest } from "../../../src/http/auth/index.js";
import { defined } from "../../../src/defined.js";

function request(url: string, headers: Record<string, string> = { host: "127.0.0.1:3000" }, protocol?: string): AuthRequest {
  return { url, originalUrl: url, headers, ...defined({ protocol }), socket: {} } as unknown as AuthRequest;
}

describe("auth URLs", () => {
  it("keeps the query in the metadata URL and leaves it out of the resource", () => {
    const req = request("/mcp?only=admin&x");
    assert.equal(protectedResourceMetadataUrl(req), "http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp?only=admin&x");
    assert.equal(publicResourceUrl(req, "/mcp"), "http://127.0.0.1:3000/mcp");
    assert.equal(protectedResourceMetadataUrl(request("/")), "http://127.0.0.1:3000/.well-known/oauth-protected-resource");
  });

  it("follows express's protocol (trust proxy) and a configured public base URL with a path prefix", () => {
    assert.equal(
      protectedResourceMetadataUrl(request("/mcp", { host: "mcp.example.test" }, "https")),
      "https://mcp.example.test/.well-known/oauth-protected-resource/mcp",
    );
    const req = request("/mcp?only=a", { host: "10.0.0.5:8080" });
    assert.equal(
      protectedResourceMetadataUrl(req, { publicBaseUrl: "https://mcp.example.test/tools/" }),
      "https://mcp.example.test/.well-known/oauth-protected-resource/tools/mcp?only=a",
    );
    assert.equal(publicResourceUrl(req, "/mcp", { publicBaseUrl: "https://mcp.example.test/tools" }), "https://mcp.example.test/tools/mcp");
  });

  it("stays on the request's own origin for odd request targets", () => {
    assert.equal(publicRequestUrl(request("//evil.example/mcp?q=1")).href, "http://127.0.0.1:3000/mcp?q=1");
    assert.equal(publicRequestUrl(request("http://other.example/mcp?only=a")).href, "http://127.0.0.1:3000/mcp?only=a");
    assert.equal(publicRequestUrl(request("*")).href, "http://127.0.0.1:3000/");
  });

  it("refuses a request without a usable Host", () => {
    for (const headers of <Record<string, string>[]>[{}, { host: "evil.example/path" }, { host: "a b" }, { host: "user@host" }]) {
      assert.throws(() => protectedResourceMetadataUrl(request("/mcp", headers)), {
        code: "AUTH_BAD_REQUEST",
        message: "the request has no usable Host header, so the resource metadata URL cannot be built; send a Host header (or configure publicBaseUrl)",
      });
    }
    assert.equal(protectedResourceMetadataUrl(request("/mcp", { host: "[::1]:3000" })), "http://[::1]:3000/.well-known/oauth-protected-resource/mcp");
  });
});
