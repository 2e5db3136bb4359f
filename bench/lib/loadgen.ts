/**
 * The load-generator process: closed-loop HTTP clients over keep-alive connections (undici Pool, pipelining 1),
 * or over the pipe of a stdio server it started (loadgen-stdio.ts). N workers each send their next request when
 * the previous answer has been read and checked; every answer is checked (protocol.ts), and a wrong one is
 * counted as a failure with its reason, never as throughput. It runs in its own process so that its CPU is not
 * the server's; it exits when the suite goes away (and takes its stdio servers with it).
 */
import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import type { Command, OpenTarget, Op, Reply, Sample } from "./loadgen-protocol.js";
import { StdioConnection } from "./loadgen-stdio.js";
import {
  callBody,
  checkCall,
  checkCallMessage,
  checkInitialize,
  checkList,
  INITIALIZED_BODY,
  initializeBody,
  listBody,
  requestHeaders,
  type Answer,
} from "./protocol.js";
import { SameAnswer } from "./same-answer.js";
import { defined } from "../../src/defined.js";

/** Every id has 10 digits, so a big answer's length does not change with its id (same-answer.ts). */
let nextId = 1_000_000_000;

interface Session {
  id: string;
  version: string;
}

interface Target {
  spec: OpenTarget;
  /** HTTP targets: the pool and the path (with its query). */
  pool?: Pool;
  path: string;
  /** stdio targets: the server's pipe. */
  stdio?: StdioConnection;
  sessions: Session[];
  idle: Session[];
  lists: SameAnswer;
}

const targets = new Map<string, Target>();
const stdioServers = new Map<string, StdioConnection>();

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

async function send(target: Target, method: "POST" | "DELETE", headers: Record<string, string>, body?: string): Promise<Answer> {
  if (!target.pool) throw new Error(`target "${target.spec.key}" is a stdio server: only tools/call is driven over stdio`);
  const response = await target.pool.request({ path: target.path, method, headers, ...defined({ body }) });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  const sessionId = header(response.headers["mcp-session-id"]);
  return { status: response.statusCode, contentType: header(response.headers["content-type"]) ?? "", body: bytes, ...(sessionId ? { sessionId } : {}) };
}

async function openSession(target: Target): Promise<Session> {
  const id = nextId++;
  const init = await send(target, "POST", requestHeaders("session", "initialize"), initializeBody(id));
  const { sessionId, version, problem } = checkInitialize(init, id);
  if (problem) throw new Error(`initialize: ${problem}`);
  const session = { id: sessionId!, version: version! };
  const initialized = await send(
    target,
    "POST",
    requestHeaders("session", "notifications/initialized", { sessionId: session.id, version: session.version }),
    INITIALIZED_BODY,
  );
  if (initialized.status < 200 || initialized.status >= 300)
    throw new Error(`notifications/initialized: HTTP ${initialized.status} ${initialized.body.toString("utf8").slice(0, 200)}`);
  return session;
}

async function deleteSession(target: Target, session: Session): Promise<void> {
  const answer = await send(target, "DELETE", requestHeaders("session", "DELETE", { sessionId: session.id, version: session.version }));
  if (answer.status < 200 || answer.status >= 300) throw new Error(`DELETE: HTTP ${answer.status} ${answer.body.toString("utf8").slice(0, 200)}`);
}

async function call(target: Target, session: Session | undefined): Promise<string | undefined> {
  const id = nextId++;
  const text = `echo #${id}`;
  if (target.stdio) return checkCallMessage(await target.stdio.request(id, callBody("session", id, text)), id, text);
  const era = target.spec.era;
  const answer = await send(
    target,
    "POST",
    requestHeaders(era, "tools/call", { name: "echo", ...(session ? { sessionId: session.id, version: session.version } : {}) }),
    callBody(era, id, text),
  );
  return checkCall(answer, id, text);
}

async function list(target: Target, session: Session | undefined): Promise<{ problem?: string; contentType: string }> {
  const id = nextId++;
  const era = target.spec.era;
  const answer = await send(
    target,
    "POST",
    requestHeaders(era, "tools/list", session ? { sessionId: session.id, version: session.version } : {}),
    listBody(era, id),
  );
  const problem = target.lists.check(answer, id, () => checkList(answer, id, target.spec.tools));
  return { ...(problem ? { problem } : {}), contentType: answer.contentType };
}

/** One churn unit: a whole short-lived 2025-era session. */
async function churn(target: Target): Promise<string | undefined> {
  const session = await openSession(target);
  const listed = await list(target, session);
  if (listed.problem) return `tools/list: ${listed.problem}`;
  for (let i = 0; i < 10; i += 1) {
    const problem = await call(target, session);
    if (problem) return `tools/call: ${problem}`;
  }
  await deleteSession(target, session);
  return undefined;
}

async function drive(target: Target, op: Op, ms: number, collect: boolean): Promise<Sample> {
  const sample: Sample = { ok: 0, failed: 0, seconds: 0, loadCpuMicros: 0, latencies: [], sameAnswers: 0, fullChecks: 0, bodies: [] };
  const bodies = new Set<string>();
  const before = { ...target.lists.counts };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const until = started + ms;
  const worker = async (index: number) => {
    const session = target.sessions.length > 0 ? target.sessions[index % target.sessions.length] : undefined;
    while (performance.now() < until) {
      const sent = performance.now();
      let problem: string | undefined;
      try {
        if (op === "call") problem = await call(target, session);
        else if (op === "list") {
          const listed = await list(target, session);
          problem = listed.problem;
          bodies.add(listed.contentType.includes("event-stream") ? "SSE" : "JSON");
        } else problem = await churn(target);
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      if (problem === undefined) {
        sample.ok += 1;
        if (collect) sample.latencies.push(performance.now() - sent);
      } else {
        sample.failed += 1;
        sample.firstFailure ??= problem;
      }
    }
  };
  await Promise.all(Array.from({ length: target.spec.concurrency }, (_, i) => worker(i)));
  sample.seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  sample.loadCpuMicros = cpu.user + cpu.system;
  sample.sameAnswers = target.lists.counts.same - before.same;
  sample.fullChecks = target.lists.counts.full - before.full;
  sample.bodies = [...bodies];
  return sample;
}

/** Runs `count` jobs with at most `limit` at once. */
async function limited<T>(count: number, limit: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await job(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
  return results;
}

async function handle(command: Command): Promise<unknown> {
  switch (command.cmd) {
    case "open": {
      const spec = command.target;
      if (spec.stdio !== undefined) {
        const stdio = stdioServers.get(spec.stdio);
        if (!stdio) throw new Error(`no stdio server "${spec.stdio}" was started`);
        if (spec.sessions || spec.era !== "session")
          throw new Error(`stdio target "${spec.key}": a stdio server is driven in the 2025 era, without HTTP sessions`);
        targets.set(spec.key, { spec, path: "", stdio, sessions: [], idle: [], lists: new SameAnswer() });
        return { sessions: 0 };
      }
      const url = new URL(spec.url);
      const pool = new Pool(url.origin, { connections: spec.concurrency, pipelining: 1, headersTimeout: 120_000, bodyTimeout: 120_000 });
      const target: Target = { spec, pool, path: `${url.pathname}${url.search}`, sessions: [], idle: [], lists: new SameAnswer() };
      targets.set(spec.key, target);
      if (spec.sessions) target.sessions = await limited(spec.concurrency, spec.concurrency, () => openSession(target));
      return { sessions: target.sessions.length };
    }
    case "drive":
      return drive(get(command.key), command.op, command.ms, command.collect);
    case "open-idle": {
      const target = get(command.key);
      const opened = await limited(command.count, target.spec.concurrency, () => openSession(target));
      target.idle.push(...opened);
      return { idle: target.idle.length };
    }
    case "delete-idle": {
      const target = get(command.key);
      await limited(target.idle.length, target.spec.concurrency, (i) => deleteSession(target, target.idle[i]!));
      const deleted = target.idle.length;
      target.idle = [];
      return { deleted };
    }
    case "probe-idle": {
      // Whether an idle session still answers: the HTTP status of a tools/call on it (which also refreshes it).
      const target = get(command.key);
      const session = target.idle[command.index];
      if (!session) throw new Error(`no idle session #${command.index} to probe`);
      const id = nextId++;
      const answer = await send(
        target,
        "POST",
        requestHeaders("session", "tools/call", { sessionId: session.id, version: session.version }),
        callBody("session", id, "probe"),
      );
      return { status: answer.status };
    }
    case "forget-idle": {
      // The server ended them (expiry): drop the ids without sending DELETE.
      const target = get(command.key);
      const forgotten = target.idle.length;
      target.idle = [];
      return { forgotten };
    }
    case "close": {
      const target = targets.get(command.key);
      if (!target) return {};
      targets.delete(command.key);
      await Promise.allSettled(target.sessions.map((s) => deleteSession(target, s)));
      await target.pool?.close();
      return {};
    }
    case "start-stdio": {
      if (stdioServers.has(command.key)) throw new Error(`stdio server "${command.key}" is already running`);
      const server = await StdioConnection.open({ command: command.command, args: command.args }, nextId++);
      stdioServers.set(command.key, server);
      return { pid: server.pid };
    }
    case "stop-stdio": {
      const server = stdioServers.get(command.key);
      stdioServers.delete(command.key);
      await server?.close();
      return {};
    }
  }
}

function get(key: string): Target {
  const target = targets.get(key);
  if (!target) throw new Error(`no open target "${key}"`);
  return target;
}

process.on("disconnect", () => {
  void Promise.allSettled([...stdioServers.values()].map((s) => s.close())).finally(() => process.exit(0));
});
process.on("message", (message: Command & { seq: number }) => {
  handle(message).then(
    (value) => process.send!({ seq: message.seq, ok: true, value } satisfies Reply),
    (error: unknown) => process.send!({ seq: message.seq, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies Reply),
  );
});
process.send!({ seq: 0, ok: true, value: "ready" } satisfies Reply);
