// bearerAuth over real HTTP (an express app on 127.0.0.1:0): where it reads the token from and what it refuses,
// the exact RFC 6750 challenges (no error code without credentials, invalid_token, insufficient_scope with the
// needed scopes, 503 + Retry-After when verification is unavailable), a resource_metadata URL that keeps the
// request's query, and what it hands on (req.auth, callerOf) when the token is good.
import { afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { memoryLogger } from "../../../src/logger.js";
import { customVerifier, tokenRefused, verifierUnavailable, type TokenVerifier, type VerifiedCaller } from "../../../src/http/auth/index.js";
import { Cleanup, startProtectedApp } from "../../fixtures/auth/protected-app.js";
import { defined } from "../../../src/defined.js";

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const ALICE: VerifiedCaller = { subject: "alice", clientId: "cli", scopes: ["mcp:read"], expiresAt: 4_000_000_000, claims: { sub: "alice" } };

function testVerifier(requiredScopes: string[] = []): TokenVerifier {
  return customVerifier(
    async (token) => {
      if (token === "good-token") return ALICE;
      if (token === "expired-token") throw tokenRefused("expired");
      if (token === "idp-down") throw verifierUnavailable("the introspection endpoint answered HTTP 502");
      throw tokenRefused("signature");
    },
    { requiredScopes },
  );
}

async function call(url: string | URL, headers: Record<string, string> = {}, method = "POST") {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    ...(method === "POST" ? { body: "{}" } : {}),
  });
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate"),
    retryAfter: response.headers.get("retry-after"),
    body: await response.json(),
  };
}

const rpcError = (code: number, message: string) => ({ jsonrpc: "2.0", error: { code, message }, id: null });
const DISCOVER = "Get a token from the authorization server named in the resource metadata (the resource_metadata URL in WWW-Authenticate) and retry.";

async function app(options: { verifier?: TokenVerifier; requiredScopes?: string[]; publicBaseUrl?: string } = {}) {
  const { logger, records } = memoryLogger();
  const served = await startProtectedApp(cleanup, {
    verifier: options.verifier ?? testVerifier(),
    metadata: { authorizationServers: ["https://idp.example.test"] },
    logger,
    ...defined({ requiredScopes: options.requiredScopes, publicBaseUrl: options.publicBaseUrl }),
  });
  return { ...served, records, meta: (query = "") => `${served.baseUrl}/.well-known/oauth-protected-resource/mcp${query}` };
}

describe("bearerAuth challenges", () => {
  it("answers a request without credentials with 401 and a challenge without an error code (RFC 6750 §3.1)", async () => {
    const { mcpUrl, meta } = await app();
    assert.deepEqual(await call(mcpUrl()), {
      status: 401,
      challenge: `Bearer resource_metadata="${meta()}"`,
      retryAfter: null,
      body: rpcError(-32000, `Unauthorized: this endpoint needs an OAuth access token, sent as "Authorization: Bearer <token>". ${DISCOVER}`),
    });
  });

  it("keeps the MCP request's query in resource_metadata, so the selection survives the OAuth round trip", async () => {
    const { mcpUrl, meta } = await app();
    assert.equal((await call(mcpUrl("only=admin"))).challenge, `Bearer resource_metadata="${meta("?only=admin")}"`);
    assert.equal(
      (await call(mcpUrl("toolsets=a,b&x"), { authorization: "Bearer bad-token" })).challenge,
      `Bearer error="invalid_token", error_description="The access token is invalid", resource_metadata="${meta("?toolsets=a,b&x")}"`,
    );
  });

  it("treats another scheme (Basic) like no credentials", async () => {
    const { mcpUrl, meta } = await app();
    const answer = await call(mcpUrl(), { authorization: "Basic YWxpY2U6cHc=" });
    assert.equal(answer.status, 401);
    assert.equal(answer.challenge, `Bearer resource_metadata="${meta()}"`);
  });

  it("answers an invalid token with invalid_token, telling the client only 'invalid' or 'expired'", async () => {
    const { mcpUrl, meta, records } = await app();
    assert.deepEqual(await call(mcpUrl(), { authorization: "Bearer bad-token" }), {
      status: 401,
      challenge: `Bearer error="invalid_token", error_description="The access token is invalid", resource_metadata="${meta()}"`,
      retryAfter: null,
      body: rpcError(-32000, `Unauthorized: the access token is invalid. ${DISCOVER}`),
    });
    const expired = await call(mcpUrl(), { authorization: "Bearer expired-token" });
    assert.equal(expired.challenge, `Bearer error="invalid_token", error_description="The access token has expired", resource_metadata="${meta()}"`);
    assert.deepEqual(expired.body, rpcError(-32000, `Unauthorized: the access token has expired. ${DISCOVER}`));
    assert.deepEqual(
      records.map((r) => [r.level, r.message, r.data?.code, r.data?.reason]),
      [
        ["info", "bearer token refused", "AUTH_TOKEN_INVALID", "the access token's signature does not verify"],
        ["info", "bearer token refused", "AUTH_TOKEN_INVALID", "the access token has expired"],
      ],
      "the precise reason goes to the log, not to the client",
    );
  });

  it("answers a token without a required scope with 403 insufficient_scope naming every needed scope", async () => {
    const { mcpUrl, meta } = await app({ verifier: testVerifier(["mcp:read"]), requiredScopes: ["mcp:admin"] });
    assert.deepEqual(await call(mcpUrl(), { authorization: "Bearer good-token" }), {
      status: 403,
      challenge: `Bearer error="insufficient_scope", error_description="The access token lacks a required scope", scope="mcp:read mcp:admin", resource_metadata="${meta()}"`,
      retryAfter: null,
      body: rpcError(
        -32000,
        "Forbidden: the access token lacks a scope this request needs (it needs: mcp:read mcp:admin). Request a token with these scopes and retry.",
      ),
    });
    assert.equal(
      (await call(mcpUrl())).challenge,
      `Bearer scope="mcp:read mcp:admin", resource_metadata="${meta()}"`,
      "the first 401 already says which scopes to ask for",
    );
  });

  it("answers 503 with Retry-After when the verifier is unavailable, and logs it as a warning", async () => {
    const { mcpUrl, records } = await app();
    assert.deepEqual(await call(mcpUrl(), { authorization: "Bearer idp-down" }), {
      status: 503,
      challenge: null,
      retryAfter: "10",
      body: rpcError(
        -32000,
        "Service Unavailable: the server cannot verify access tokens right now (its identity provider is not answering). Retry after 10 seconds.",
      ),
    });
    assert.deepEqual(
      records.map((r) => [r.level, r.data?.code, r.data?.reason]),
      [["warn", "AUTH_UNAVAILABLE", "tokens cannot be verified right now: the introspection endpoint answered HTTP 502"]],
    );
  });

  it("answers 500 without detail when a verifier breaks its contract", async () => {
    const broken: TokenVerifier = {
      kind: "custom",
      requiredScopes: [],
      verify: async () => Promise.reject(new TypeError("cannot read properties of undefined")),
    };
    const { mcpUrl, records } = await app({ verifier: broken });
    assert.deepEqual(await call(mcpUrl(), { authorization: "Bearer good-token" }), {
      status: 500,
      challenge: null,
      retryAfter: null,
      body: rpcError(-32603, "Internal error"),
    });
    assert.deepEqual(
      records.map((r) => [r.level, r.data?.code ?? r.data?.failure]),
      [["error", "internal"]],
    );
  });
});

describe("bearerAuth reads the token only from the Authorization header", () => {
  for (const [query, name] of [
    ["access_token=good-token", "access_token"],
    ["only=x&token=good-token", "token"],
    ["acc%65ss_token=good-token", "access_token"],
  ] as const) {
    it(`refuses a token in the query (${query}) with 400, even beside a good header`, async () => {
      const { mcpUrl } = await app();
      const answer = await call(mcpUrl(query), { authorization: "Bearer good-token" });
      assert.deepEqual(answer, {
        status: 400,
        challenge: 'Bearer error="invalid_request", error_description="The request carries its credentials wrongly"',
        retryAfter: null,
        body: rpcError(
          -32600,
          `Bad Request: a token was sent in the URL query (${name}=); tokens are accepted only in the Authorization header ("Authorization: Bearer <token>") — remove it from the URL, which may already have been logged.`,
        ),
      });
    });
  }

  it("lets a bare ?token through (the selection grammar's toolset name, not a credential)", async () => {
    const { baseUrl } = await app();
    assert.equal((await call(`${baseUrl}/probe?token&only=token`, { authorization: "Bearer good-token" })).status, 200);
  });

  it("refuses an Authorization header over 8 KiB with 400", async () => {
    const { mcpUrl } = await app();
    const answer = await call(mcpUrl(), { authorization: `Bearer ${"a".repeat(9000)}` });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, rpcError(-32600, "Bad Request: the Authorization header is larger than 8192 bytes; send a single bearer token."));
  });

  for (const header of ["Bearer", "Bearer    ", "Bearer two tokens", "Bearer tok$en", "Bearer a,b"]) {
    it(`refuses a malformed Bearer header (${JSON.stringify(header)}) with 400`, async () => {
      const { mcpUrl } = await app();
      const answer = await call(mcpUrl(), { authorization: header });
      assert.equal(answer.status, 400);
      assert.deepEqual(
        answer.body,
        rpcError(-32600, 'Bad Request: the Authorization header is malformed: "Bearer" must be followed by one space and a single token.'),
      );
    });
  }

  it("accepts the scheme in any case", async () => {
    const { baseUrl } = await app();
    assert.equal((await call(`${baseUrl}/probe`, { authorization: "bearer good-token" })).status, 200);
  });
});

describe("bearerAuth on success", () => {
  it("sets the SDK's req.auth (with the token) and callerOf(req) (without it)", async () => {
    const { baseUrl } = await app();
    const answer = await call(`${baseUrl}/probe?only=x`, { authorization: "Bearer good-token" });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {
      caller: ALICE,
      authInfo: {
        clientId: "cli",
        scopes: ["mcp:read"],
        expiresAt: 4_000_000_000,
        resourceMetadataUrl: `${baseUrl}/.well-known/oauth-protected-resource/probe?only=x`,
        extra: { subject: "alice", claims: { sub: "alice" } },
      },
      authTokenIsTheBearerToken: true,
    });
  });

  it("advertises the configured public base URL behind a proxy, query kept", async () => {
    const { mcpUrl } = await app({ publicBaseUrl: "https://mcp.example.test/tools" });
    assert.equal(
      (await call(mcpUrl("only=admin"))).challenge,
      'Bearer resource_metadata="https://mcp.example.test/.well-known/oauth-protected-resource/tools/mcp?only=admin"',
    );
  });
});
