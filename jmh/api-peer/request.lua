-- The wrk script of jmh/compare-api.sh, the same for both sides:
--   wrk -t T -c C -d D -H 'Authorization: ...' -s request.lua URL -- METHOD BODY_FILE MARKER
-- METHOD GET or POST; BODY_FILE a JSON body for POST ("-": none); MARKER a string every response body must
-- hold ("-": bodies are not read, only the status is counted, as for a 10 MiB download, which wrk would
-- otherwise copy into the script). Every response that is not 2xx, and every body without MARKER, is
-- counted; done() prints one JSON line with requests/s, latency percentiles and those counts.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  wrk.method = args[1]
  if args[2] ~= "-" then
    local f = assert(io.open(args[2], "rb"))
    wrk.body = f:read("*a")
    f:close()
    wrk.headers["Content-Type"] = "application/json"
  end
  marker = args[3]
  non2xx = 0
  wrong_body = 0
  first_bad = ""
  if marker == "-" then
    response = nil   -- wrk then neither buffers bodies nor calls the script per response
  end
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
    if first_bad == "" then first_bad = status .. " " .. string.sub(body or "", 1, 300) end
  elseif not string.find(body or "", marker, 1, true) then
    wrong_body = wrong_body + 1
    if first_bad == "" then first_bad = status .. " without '" .. marker .. "': " .. string.sub(body or "", 1, 300) end
  end
end

local function json_string(s)
  return '"' .. string.gsub(s, '[%c"\\]', function(c) return string.format("\\u%04x", string.byte(c)) end) .. '"'
end

function done(summary, latency, requests)
  local bad, wrong, first = 0, 0, ""
  for _, t in ipairs(threads) do
    bad = bad + (t:get("non2xx") or 0)
    wrong = wrong + (t:get("wrong_body") or 0)
    local f = t:get("first_bad") or ""
    if first == "" then first = f end
  end
  local e = summary.errors
  local seconds = summary.duration / 1e6
  io.write(string.format(
    '{"requests":%d,"seconds":%.3f,"bytes":%d,"rps":%.2f,"mean_ms":%.3f,"p50_ms":%.3f,"p90_ms":%.3f,' ..
    '"p99_ms":%.3f,"max_ms":%.3f,"non2xx":%d,"wrong_body":%d,"status_errors":%d,"socket_errors":%d,"first_bad":%s}\n',
    summary.requests, seconds, summary.bytes, summary.requests / seconds, latency.mean / 1000,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, bad, wrong, e.status, e.connect + e.read + e.write + e.timeout, json_string(first)))
end
