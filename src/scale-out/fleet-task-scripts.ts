/**
 * The Lua scripts of the fleet's task store (fleet-tasks.ts). Each runs atomically in Redis, so writing a task, its
 * version, its owner's count and the change every instance hears happen as one step: no instance can see the count
 * without the task, or hear a change older than one it already heard. Times are the instances' own (the board's
 * clock decides expiry and leases, as in memory), passed in; a task's Redis TTL is relative, so clock skew between an
 * instance and Redis does not shorten it. The scripts read the keys of an owner's tasks by name: one Redis, not a
 * Redis Cluster, as for the rest of the fleet.
 */

/** An owner's unfinished tasks: finished, vanished or expired ones trimmed; one whose lease ran out not counted. */
const ACTIVE = `
local function finished(status)
  return status == 'completed' or status == 'failed' or status == 'cancelled'
end
local function active(owners, now, taskPrefix)
  redis.call('ZREMRANGEBYSCORE', owners, '-inf', now)
  local count = 0
  for _, id in ipairs(redis.call('ZRANGE', owners, 0, -1)) do
    local held = redis.call('HMGET', taskPrefix .. id, 'status', 'lease')
    local lease = tonumber(held[2])
    if not held[1] or finished(held[1]) then
      redis.call('ZREM', owners, id)
    elseif lease == nil or lease > now then
      count = count + 1
    end
  end
  return count
end
local function changed(channel, version, lease, task)
  redis.call('PUBLISH', channel, '{"v":1,"version":' .. version .. ',"lease":' .. (lease == '' and 'null' or lease) .. ',"task":' .. task .. '}')
end
`;

/**
 * KEYS: the task, its owner's set. ARGV: id, task JSON, status, lease ('' for none), ms to keep it, when it expires,
 * now, the owner's most unfinished tasks (0: no bound), the task keys' prefix, the change channel.
 * Returns 1 (made), -1 (the owner has its most already), -2 (the id is taken).
 */
export const CREATE_TASK = `${ACTIVE}
local most = tonumber(ARGV[8])
if most > 0 and active(KEYS[2], tonumber(ARGV[7]), ARGV[9]) >= most then return -1 end
if redis.call('EXISTS', KEYS[1]) == 1 then return -2 end
redis.call('HSET', KEYS[1], 'v', 1, 'status', ARGV[3], 'task', ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'lease', ARGV[4]) end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[2], ARGV[5]) end
changed(ARGV[10], 1, ARGV[4], ARGV[2])
return 1
`;

/**
 * KEYS: the task, its owner's set. ARGV: id, task JSON, status, lease ('' for none), the change channel.
 * Returns {version} (written), {0} (no such task: expired), {-1, the stored JSON} (it finished already: nothing
 * changes a finished task, so a late write of its running instance cannot undo the failure another instance recorded).
 */
export const PUT_TASK = `${ACTIVE}
local held = redis.call('HMGET', KEYS[1], 'v', 'status')
if not held[1] then return {0} end
if finished(held[2]) then return {-1, redis.call('HGET', KEYS[1], 'task')} end
local version = tonumber(held[1]) + 1
redis.call('HSET', KEYS[1], 'v', version, 'status', ARGV[3], 'task', ARGV[2])
if ARGV[4] == '' then redis.call('HDEL', KEYS[1], 'lease') else redis.call('HSET', KEYS[1], 'lease', ARGV[4]) end
if finished(ARGV[3]) then redis.call('ZREM', KEYS[2], ARGV[1]) end
changed(ARGV[5], version, ARGV[4], ARGV[2])
return {version}
`;

/**
 * A lease renewed and nothing else (no change to hear). KEYS: the task. ARGV: the new lease.
 * Returns 1 (renewed), 0 (no such task), -1 (finished).
 */
export const RENEW_LEASE = `${ACTIVE}
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return 0 end
if finished(status) then return -1 end
redis.call('HSET', KEYS[1], 'lease', ARGV[1])
return 1
`;

/** KEYS: the owner's set. ARGV: now, the task keys' prefix. Returns the owner's unfinished tasks. */
export const ACTIVE_TASKS = `${ACTIVE}
return active(KEYS[1], tonumber(ARGV[1]), ARGV[2])
`;
