// A relayed task belongs to its caller (issue 29 §3, docs/gateway.md "Tasks"), over real HTTP with token verification:
// another caller's tasks/get, tasks/update and tasks/cancel for the gateway's task are answered as for an unknown id,
// and none of them reaches the upstream; the owner's cancel does.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createLogger } from "../../src/logger.js";
import { createSecretRedactor } from "../../src/secret-redactor.js";
import { createGateway } from "../../src/upstream/index.js";
import { authTestFile } from "../helpers/auth-host.js";
import { serveTaskUpstream } from "../fixtures/upstream/task-upstream.js";
import { rpc } from "../tasks/tasks-kit.js";

const file = authTestFile();

/** The task requests of `method` the upstream received. */
const taskRequests = (upstream: { seen: Array<{ method?: string }> }, method: string) => upstream.seen.filter((r) => r.method === method);

describe("a relayed task belongs to its caller", { timeout: 60_000 }, () => {
  it("answers another caller's tasks/get, update and cancel as for an unknown id, and nothing reaches the upstream", async () => {
    const secret = `sk-upstream-${randomUUID()}`;
    const upstream = await serveTaskUpstream(file.cleanup, { secret });
    const gateway = createGateway({
      servers: { builds: { url: upstream.url, era: "modern", headers: { "x-api-key": secret } } },
      redactor: createSecretRedactor([secret]),
      logger: createLogger({ level: "error" }),
    });
    const served = await file.serve({ extensions: [gateway.extension], auth: { toolsetScopes: {} } });
    const alice = await served.token({ sub: "alice", client_id: "shared-app" });
    const bob = await served.token({ sub: "bob", client_id: "shared-app" });
    const created = await rpc(served.url, "tools/call", { name: "wait", arguments: {} }, { token: alice });
    assert.equal(created.result?.resultType, "task", JSON.stringify(created));
    const taskId = created.result.taskId as string;
    await upstream.eventually(/^wait: started$/);
    for (const [method, extra] of [
      ["tasks/get", {}],
      ["tasks/update", { inputResponses: {} }],
      ["tasks/cancel", {}],
    ] as const) {
      const stolen = await rpc(served.url, method, { taskId, ...extra }, { token: bob });
      const unknown = await rpc(served.url, method, { taskId: randomUUID(), ...extra }, { token: bob });
      assert.equal(stolen.error?.code, -32602, `${method} by another caller: ${JSON.stringify(stolen)}`);
      assert.deepEqual(stolen.error, unknown.error, `${method}: another caller's id is answered as an unknown one`);
    }
    assert.equal(taskRequests(upstream, "tasks/cancel").length, 0, "bob's cancel never reached the upstream");
    assert.equal(taskRequests(upstream, "tasks/update").length, 0, "nor his update");
    assert.equal((await rpc(served.url, "tasks/get", { taskId }, { token: alice })).result.status, "working");
    await rpc(served.url, "tasks/cancel", { taskId }, { token: alice });
    await upstream.eventually(/^wait: aborted$/);
    assert.equal(taskRequests(upstream, "tasks/cancel").length, 1, "alice's cancel did");
  });
});
