// The scale-out examples stay what docs/scale-out.md says they are (Docker cannot run here, so they are read, not
// run — the nginx template is run, by fleet.test.ts): the compose file has Redis, nginx and three instances whose host
// names are the names the nginx template routes by, nginx gets that template and an address for each instance, and
// every instance's config loads with scaleOut (Redis URL and state key from the environment). The Kubernetes manifests
// have the Deployment, Service and Redis, the StatefulSet with its per-pod Service and nginx, and configs that load.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { parse, parseAllDocuments } from "yaml";
import { REPO } from "../helpers/cli-process.js";
import { NGINX_TEMPLATE } from "../helpers/fleet-servers.js";
import { loadYaml, removeProjects } from "../config/config-kit.js";

afterEach(removeProjects);

const EXAMPLE = join(REPO, "examples", "scale-out");
const ENV = { HOSTNAME: "mcp-a", MCP_HOST_REDIS_URL: "redis://redis:6379", MCP_HOST_STATE_KEY: "an-example-state-key-of-32-bytes-or-more" };
const read = (...path: string[]) => readFileSync(join(EXAMPLE, ...path), "utf8");
const docs = readFileSync(join(REPO, "docs", "scale-out.md"), "utf8");

type Manifest = { kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };
function manifests(file: string): Manifest[] {
  return parseAllDocuments(read("k8s", file)).map((d) => d.toJS() as Manifest);
}

/** The scaleOut an instance's config gets once loaded as the instances load it. */
async function scaleOutOf(yaml: string) {
  const loaded = await loadYaml(yaml, { env: ENV });
  return { scaleOut: loaded.config.scaleOut, http: loaded.config.http };
}

describe("the scale-out examples", () => {
  it("compose: Redis, nginx with the template, three instances named as nginx routes them", async () => {
    // Compose files use YAML merge keys (`<<: *mcp-host`), as Docker Compose reads them.
    const compose = parse(read("docker-compose.yml"), { merge: true }) as { services: Record<string, any> };
    assert.deepEqual(Object.keys(compose.services).sort(), ["mcp-a", "mcp-b", "mcp-c", "nginx", "redis"]);
    const template = readFileSync(NGINX_TEMPLATE, "utf8");
    for (const [id, variable] of [
      ["mcp-a", "MCP_HOST_A"],
      ["mcp-b", "MCP_HOST_B"],
      ["mcp-c", "MCP_HOST_C"],
    ] as const) {
      const service = compose.services[id];
      assert.equal(service.hostname, id, "the host name is the instance's name");
      assert.equal(service.environment.MCP_HOST_REDIS_URL, "redis://redis:6379");
      assert.match(service.environment.MCP_HOST_STATE_KEY, /^\$\{MCP_HOST_STATE_KEY:\?/, "the key comes from the operator, never the file");
      assert.equal(compose.services.nginx.environment[variable], `${id}:3000`);
      assert.ok(template.includes(`"~^${id}\\."`), `the template routes the prefix ${id}.`);
      assert.ok(template.includes(`\${${variable}}`));
    }
    assert.deepEqual(compose.services.nginx.volumes, ["./nginx/mcp-host.conf.template:/etc/nginx/templates/mcp-host.conf.template:ro"]);
    assert.ok(template.includes("${NGINX_PORT}") && compose.services.nginx.environment.NGINX_PORT === "8080");
    const { scaleOut, http } = await scaleOutOf(read("mcp-host.config.yaml"));
    assert.deepEqual(scaleOut, {
      instanceId: "mcp-a",
      redis: { url: ENV.MCP_HOST_REDIS_URL, prefix: "mcp-host:" },
      stateKey: ENV.MCP_HOST_STATE_KEY,
      taskLeaseMs: 30_000,
    });
    assert.equal(http.maxConnectionsPerAddress, 4096, "raised behind a proxy");
    // The instances trust nginx, and only nginx, to say who the client is: the address compose gives it.
    assert.deepEqual(http.trustProxy, [compose.services.nginx.networks.fleet.ipv4_address]);
    assert.ok(template.includes("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;"));
    for (const name of ["docker-compose.yml", "nginx/mcp-host.conf.template", "k8s/mcp-host.yaml", "k8s/mcp-host-sessions.yaml", "k8s/redis.yaml"]) {
      assert.ok(docs.includes(name), `docs/scale-out.md explains ${name}`);
    }
  });

  it("Kubernetes: a Deployment and a Service over Redis; a StatefulSet with per-pod DNS and nginx for sessions", async () => {
    const kinds = (file: string) => manifests(file).map((m) => `${m.kind}/${m.metadata.name}`);
    assert.deepEqual(kinds("redis.yaml"), ["Deployment/mcp-host-redis", "Service/mcp-host-redis"]);
    assert.deepEqual(kinds("mcp-host.yaml"), ["Secret/mcp-host-fleet", "ConfigMap/mcp-host-config", "Deployment/mcp-host", "Service/mcp-host"]);
    assert.deepEqual(kinds("mcp-host-sessions.yaml"), [
      "ConfigMap/mcp-host-sessions-config",
      "Service/mcp-host-pods",
      "StatefulSet/mcp-host",
      "ConfigMap/mcp-host-nginx",
      "Deployment/mcp-host-nginx",
      "Service/mcp-host-sessions",
    ]);
    const plain = manifests("mcp-host.yaml");
    const modern = await scaleOutOf(plain.find((m) => m.kind === "ConfigMap")!.data!["mcp-host.config.yaml"]!);
    assert.equal(modern.http.legacy, "stateless", "a plain Service cannot keep a session on its pod");
    assert.equal(modern.scaleOut?.redis?.url, ENV.MCP_HOST_REDIS_URL);
    const sessions = manifests("mcp-host-sessions.yaml");
    const stateful = await scaleOutOf(sessions[0]!.data!["mcp-host.config.yaml"]!);
    assert.equal(stateful.http.legacy, "stateful");
    const set = sessions.find((m) => m.kind === "StatefulSet")!;
    const pods = sessions.find((m) => m.kind === "Service" && m.metadata.name === set.spec.serviceName)!;
    assert.equal(pods.spec.clusterIP, "None", "a headless Service: one DNS name per pod");
    const env = set.spec.template.spec.containers[0].env.map((e: { name: string }) => e.name);
    assert.deepEqual(env, ["MCP_HOST_REDIS_URL", "MCP_HOST_STATE_KEY"]);
    const nginx = sessions.find((m) => m.metadata.name === "mcp-host-nginx" && m.kind === "ConfigMap")!.data!["mcp-host.conf"]!;
    assert.match(nginx, /"~\^\(\?<pod>mcp-host-\[0-9\]\+\)\\\."/, "routes the pod-name prefix");
    assert.match(nginx, /\.mcp-host-pods\./);
  });
});
