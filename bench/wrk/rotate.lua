-- wrk script for the server benchmark: rotates request paths and real
-- clients' Accept-Encoding headers, and writes the run's results as JSON.
--
--   WRK_PATHS="/index.html|/app.js"          paths to rotate (default "/")
--   WRK_ACCEPT_ENCODINGS="gzip, deflate, br, zstd|-"
--                                            headers to rotate; "-" sends none
--   WRK_REPORT=/tmp/run.json                 where done() writes the JSON
--
--   WRK_REPORT=out.json wrk -t1 -c100 -d10s -s bench/wrk/rotate.lua https://127.0.0.1:8443/
--
-- Every connection cycles through paths x headers, built once in init() so
-- that request() costs one table lookup. Latencies in the JSON are in
-- microseconds, as wrk records them.

local function split(text, sep)
  local out = {}
  for part in string.gmatch(text, "[^" .. sep .. "]+") do
    out[#out + 1] = part
  end
  return out
end

local requests = {}
local counter = 0

function init(args)
  local paths = split(os.getenv("WRK_PATHS") or "/", "|")
  local encodings = split(os.getenv("WRK_ACCEPT_ENCODINGS") or "-", "|")
  for _, path in ipairs(paths) do
    for _, encoding in ipairs(encodings) do
      local headers = {}
      if encoding ~= "-" then
        headers["Accept-Encoding"] = encoding
      end
      requests[#requests + 1] = wrk.format("GET", path, headers)
    end
  end
end

function request()
  counter = counter % #requests + 1
  return requests[counter]
end

local function number(n)
  if n ~= n or n == math.huge or n == -math.huge then
    return "null"
  end
  return string.format("%.17g", n)
end

function done(summary, latency, requests)
  local file = os.getenv("WRK_REPORT")
  if not file then
    return
  end
  local e = summary.errors
  local fields = {
    '"requests": ' .. number(summary.requests),
    '"durationUs": ' .. number(summary.duration),
    '"bytes": ' .. number(summary.bytes),
    '"latencyUs": {"mean": ' .. number(latency.mean)
      .. ', "p50": ' .. number(latency:percentile(50))
      .. ', "p90": ' .. number(latency:percentile(90))
      .. ', "p99": ' .. number(latency:percentile(99))
      .. ', "max": ' .. number(latency.max) .. '}',
    '"errors": {"connect": ' .. number(e.connect) .. ', "read": ' .. number(e.read)
      .. ', "write": ' .. number(e.write) .. ', "status": ' .. number(e.status)
      .. ', "timeout": ' .. number(e.timeout) .. '}',
  }
  local out = assert(io.open(file, "w"))
  out:write("{" .. table.concat(fields, ", ") .. "}\n")
  out:close()
end
