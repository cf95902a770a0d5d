-- wrk script for bench/append.py: POST roll commands round-robin over the encounters listed in the
-- file named by TUSSLE_BENCH_TARGETS (one "path token" per line), each with a fresh command_id.
-- done() prints one JSON line that append.py reads.

local targets = {}
local f = assert(io.open(os.getenv("TUSSLE_BENCH_TARGETS"), "r"))
for line in f:lines() do
  local path, token = line:match("^(%S+)%s+(%S+)$")
  if path then table.insert(targets, { path = path, token = token }) end
end
f:close()

-- Every run of wrk gets its own TUSSLE_BENCH_RUN, so that no command_id is ever resent (a resend
-- would be answered 200 from the store, not appended).
local run = os.getenv("TUSSLE_BENCH_RUN") or "0"
local thread_no = 0
function setup(thread)
  thread_no = thread_no + 1
  thread:set("thread_no", thread_no)
end

local counter = 0
function request()
  counter = counter + 1
  local t = targets[(counter % #targets) + 1]
  local body = string.format(
    '{"type":"roll","expression":"3d6","purpose":"bench","command_id":"w%s-%d-%d","entropy":"bench-entropy-0123456789"}',
    run, thread_no, counter)
  return wrk.format("POST", t.path, {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. t.token,
  }, body)
end

function done(summary, latency, requests)
  local non2xx = summary.errors.status
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "non2xx": %d, "socket_errors": %d, "p50_us": %d, "p99_us": %d}\n',
    summary.requests, summary.duration, non2xx,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
