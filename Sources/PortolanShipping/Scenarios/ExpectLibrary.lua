-- The runner's Swift function, the host's printer of values (used in its compact form, on one
-- line), and the printer's order of keys.
local report, printer, sorted_keys = ...

-- The library runs in the host's environment (HostEnvironment.c): the builtins it calls are the
-- sandbox's, whatever the app rebinds, so an app that redefines `error` or `type` cannot make a
-- failing expectation pass. Its API (`expect`, `expect_match`, `expect_events`, `exhaustive`, `scenario`,
-- `skip`, `before_each`, `after_each`)
-- lives only in the scenario file's globals, never in the app's: an observer that could call
-- `skip()` or `expect_events({})` would turn failures into skips or drain the journal.
local error, type, tostring, ipairs = error, type, tostring, ipairs
local select, setmetatable, concat, max = select, setmetatable, table.concat, math.max
local next, G, pcall, rawequal, rawget, rawlen = next, _G, pcall, rawequal, rawget, rawlen
local format, unpack = string.format, table.unpack
local SELECTED, EXHAUSTIVE = report("mode")
-- The module as the sandbox installed it, before any app could rebind the global.
local portolan_module = rawget(G, "portolan")

-- Showing values ------------------------------------------------------------------------------------

local function is_identifier(key)
  return type(key) == "string" and key:match("^[%a_][%w_]*$") ~= nil
end

-- A sequence: keys 1..n and nothing else (an empty table counts as one). Raw, as the comparison is.
local function is_list(t)
  local count = 0
  for _ in next, t do count = count + 1 end
  return count == rawlen(t)
end

local function show(value) return printer(value, true) end

-- Deep equality --------------------------------------------------------------------------------------

local function path_of(path, key)
  if type(key) == "number" then return path .. "[" .. tostring(key) .. "]" end
  if is_identifier(key) then return path == "" and key or path .. "." .. key end
  return path .. "[" .. show(key) .. "]"
end

-- The keys `t` holds, in the printer's order: listed raw, then sorted as a plain table's.
local function raw_keys(t)
  local set = {}
  for key in next, t do set[key] = true end
  return sorted_keys(set)
end

-- nil when equal; otherwise the path of the first difference and the two values found there.
-- Tables are compared raw (rawequal, rawget, next, rawlen): a value under test whose metatable
-- answers `__eq`, `__index`, `__pairs` or `__len` cannot make itself equal to what is expected.
local function difference(actual, expected, path, seen)
  if type(actual) ~= "table" or type(expected) ~= "table" then
    if actual == expected then return nil end -- no metamethod runs between values of two types
    return path, actual, expected
  end
  if rawequal(actual, expected) then return nil end
  seen[actual] = seen[actual] or {}
  if seen[actual][expected] then return nil end -- already being compared higher up
  seen[actual][expected] = true
  if is_list(actual) and is_list(expected) then
    for i = 1, max(rawlen(actual), rawlen(expected)) do
      local where, a, e = difference(rawget(actual, i), rawget(expected, i), path_of(path, i), seen)
      if where then return where, a, e end
    end
    return nil
  end
  local keys, known = {}, {}
  for _, key in ipairs(raw_keys(expected)) do keys[#keys + 1] = key; known[key] = true end
  for _, key in ipairs(raw_keys(actual)) do
    if not known[key] then keys[#keys + 1] = key end
  end
  for _, key in ipairs(keys) do
    local where, a, e = difference(rawget(actual, key), rawget(expected, key), path_of(path, key), seen)
    if where then return where, a, e end
  end
  return nil
end

-- expect ----------------------------------------------------------------------------------------------

local WIDE = 60

local function mismatch(actual, expected, message)
  local where, a, e = difference(actual, expected, "", {})
  if not where then return nil end
  local shown_actual, shown_expected = show(actual), show(expected)
  local prefix = message ~= nil and tostring(message) .. ": " or ""
  local detail = ""
  if where ~= "" then detail = ": " .. where .. " " .. show(a) .. " ~= " .. show(e) end
  if type(actual) == "table" and type(expected) == "table" and is_list(actual) and is_list(expected)
      and #actual ~= #expected then
    detail = detail .. " (" .. #actual .. " items, expected " .. #expected .. ")"
  end
  if #shown_actual + #shown_expected <= WIDE * 2 and where == "" then
    return prefix .. "expected " .. shown_expected .. " but got " .. shown_actual
  end
  if #shown_actual <= WIDE and #shown_expected <= WIDE then
    return prefix .. "expected " .. shown_expected .. " but got " .. shown_actual .. detail
  end
  -- Too wide for one line: the difference first, then both values, a list item per line.
  local function block(value, shown)
    if type(value) ~= "table" or not is_list(value) or #value == 0 then return shown end
    local lines = {}
    for i = 1, #value do lines[i] = "    " .. show(value[i]) end
    return "{\n" .. concat(lines, ",\n") .. "\n  }"
  end
  local headline = where ~= "" and detail:sub(3) or "values differ"
  return prefix .. headline .. "\n  expected " .. block(expected, shown_expected)
    .. "\n  but got " .. block(actual, shown_actual)
end

local library = {}

--- Fails the scenario at the caller's line unless `actual` deeply equals `expected`.
function library.expect(...)
  if select("#", ...) < 2 then
    error("expect(actual, expected [, message]) needs an expected value (nil too)", 2)
  end
  local actual, expected, message = ...
  local why = mismatch(actual, expected, message)
  if why then error(why, 2) end
end

-- The part of `actual` that `expected` speaks of, to compare with it as `expect` does: for a table
-- `expected`, only its keys, each projected the same way; for a non-empty list, every item of
-- `actual` (so a missing or extra item still shows), each projected by the item expected there.
-- Anything else is `actual` itself. Raw, as the comparison is.
local function projected(actual, expected, seen)
  if type(actual) ~= "table" or type(expected) ~= "table" or seen[actual] then return actual end
  seen[actual] = true
  local part = {}
  if rawlen(expected) > 0 and is_list(expected) and is_list(actual) then
    for i = 1, rawlen(actual) do part[i] = projected(rawget(actual, i), rawget(expected, i), seen) end
  else
    for key, value in next, expected do part[key] = projected(rawget(actual, key), value, seen) end
  end
  seen[actual] = nil
  return part
end

--- Fails the scenario at the caller's line unless `actual` has everything `expected` names, deeply:
--- extra keys in `actual` are ignored at every level (a list must still have exactly the items
--- expected, each matched the same way). The difference is shown as `expect` shows it.
function library.expect_match(...)
  if select("#", ...) < 2 then
    error("expect_match(actual, expected [, message]) needs an expected value (nil too)", 2)
  end
  local actual, expected, message = ...
  local why = mismatch(projected(actual, expected, {}), expected, message)
  if why then error(why, 2) end
end

--- Restores `doc` (a snapshot string) and fails the scenario at the caller's line unless the
--- outcome has every field `expected` names, deeply equal: { outcome = "migrated", changes = { … } },
--- { outcome = "refused" }. Returns the whole outcome (docs/snapshots.md).
function library.expect_restore(doc, expected, message)
  if type(expected) ~= "table" then
    error("expect_restore(doc, expected [, message]): expected must be a table, as in { outcome = \"restored\" }", 2)
  end
  local module = portolan_module or rawget(G, "portolan")
  local result = module.restore(doc)
  local actual = {}
  for key in next, expected do actual[key] = result[key] end
  local why = mismatch(actual, expected, message)
  if why then error(why, 2) end
  return result
end

-- Events ------------------------------------------------------------------------------------------------

local running = false
-- Set by `exhaustive()`, or for every scenario by `portolan test --exhaustive`.
local exhaustive_mode = EXHAUSTIVE

--- Fails the scenario at the caller's line unless the router's events since the previous
--- `expect_events` (or since the scenario began) are exactly `expected`, in order, in their
--- canonical text: `will_route root > a`, `enter a`, `did_route root > a`, `failed denied root > b`.
function library.expect_events(expected, message)
  if not running then error("expect_events({ ... }) can only be called inside a scenario", 2) end
  if type(expected) ~= "table" or not is_list(expected) then
    error("expect_events(events [, message]): events must be a list of strings", 2)
  end
  for i = 1, #expected do
    if type(expected[i]) ~= "string" then
      error("expect_events: event " .. i .. " is a " .. type(expected[i]) .. ", not a string", 2)
    end
  end
  local why = report("events", expected)
  if why then error((message ~= nil and tostring(message) .. ": " or "") .. why, 2) end
end

--- Makes events left unasserted by `expect_events` at the end of the scenario fail it: at the top
--- of a file, for each of its scenarios.
function library.exhaustive()
  exhaustive_mode = true
end

-- scenario and skip -------------------------------------------------------------------------------------

local count = 0
local SKIP = setmetatable({}, { __tostring = function() return "skipped" end })
-- What ends the file's top level once the selected scenario has run (`stop`).
local STOP = setmetatable({}, { __tostring = function() return "stopped after the selected scenario" end })
-- The set-up and tear-down functions (`before_each`, `after_each`) for the scenarios declared next.
local befores, afters = {}, {}

-- The tear-down of the selected scenario while it runs: what the runner calls, through
-- `tear_down_after_error`, when the scenario raised before its tear-down ran.
local pending_tear_down = nil
-- Whether a tear-down runs now: the scenario's verdict is in by then, and a tear-down can only add
-- a failure to it, never turn it into a skip.
local tearing_down = false

-- Runs the tear-down functions, newest first, each through `call` (a direct call, or pcall).
local function run_tear_down(tear_down, call)
  tearing_down = true
  local first
  for i = #tear_down, 1, -1 do
    local ok, why = call(tear_down[i])
    if not ok and first == nil then first = tostring(why) end
  end
  tearing_down = false
  return first
end

local function direct(fn)
  fn()
  return true
end

-- Runs the scenario between its set-up and tear-down, each called directly, so that an error keeps
-- the traceback the runner reads (`called from`); the runner then runs the tear-down (below).
local function run_scenario(fn)
  local set_up, tear_down = { unpack(befores) }, { unpack(afters) }
  pending_tear_down = tear_down
  for i = 1, #set_up do set_up[i]() end
  fn()
  pending_tear_down = nil
  -- Called directly: a tear-down's error keeps its traceback, and the runner's tear-down after an
  -- error does not run it again.
  run_tear_down(tear_down, direct)
end

-- After a scenario (or its set-up) raised, or skipped: runs its tear-down, each function under
-- pcall, and returns the first one's error as text, or nil.
local function tear_down_after_error()
  local tear_down = pending_tear_down
  pending_tear_down = nil
  tearing_down = false   -- a direct tear-down that raised left it set
  if tear_down == nil then return nil end
  return run_tear_down(tear_down, pcall)
end

-- Ends the file's top level once the selected scenario has run: the rest of the file only
-- declares scenarios this host does not run, and each rerun of a file of n scenarios would
-- otherwise run all n declarations (docs/scenarios.md, "What a scenario's run sees of its file").
-- A second declaration means a `pcall` in the file caught the first stop: it stops again.
local function stop()
  report("stop")
  error(STOP, 0)
end

-- Declares one scenario; `level` is where errors point, the file's line for the caller; `mark` is
-- "only" or "skip" for `scenario.only` and `scenario.skip`.
local function declare(name, fn, level, mark)
  if running then error("scenario(...) cannot be called inside another scenario", level) end
  count = count + 1
  if SELECTED == nil then
    report("found", count, name, mark)
  elseif count == SELECTED then
    report("start", count, name)
    running = true
    run_scenario(fn)
    running = false
    local unasserted = exhaustive_mode and report("unasserted")
    if unasserted then error(unasserted, level) end
    report("finish", count)
    stop()
  elseif count > SELECTED then
    stop()
  end
end

-- `before_each(fn)`, `after_each(fn)`: `fn` runs before (after) each scenario declared after it in
-- the file; several run in the order declared (tear-downs in reverse).
local function hook(list, what)
  return function(fn)
    if running then error(what .. "(fn) belongs at the top of the file, not inside a scenario", 2) end
    if type(fn) ~= "function" then error(what .. "(fn): fn must be a function", 2) end
    list[#list + 1] = fn
  end
end
library.before_each = hook(befores, "before_each")
library.after_each = hook(afters, "after_each")

-- A row's values: a sequence's items, or the row itself.
local function row_values(row)
  if type(row) == "table" and is_list(row) and #row > 0 then return row, #row end
  return { row }, 1
end

-- The row's name: `name_format` filled with its values, tables shown as the printer shows them.
local function row_name(name_format, index, values, n)
  local shown = {}
  for i = 1, n do
    shown[i] = type(values[i]) == "table" and show(values[i]) or values[i]
  end
  -- Called from a Lua function, so that an error names `format` (pcall alone would make it '?').
  local ok, name = pcall(function() return format(name_format, unpack(shown, 1, n)) end)
  if not ok then
    local reason = name:gsub("^expect:%d+: ", "") -- this library's line means nothing to its caller
    error("scenario.each: row " .. index .. " does not fit the name " .. show(name_format) .. ": " .. reason, 3)
  end
  return name
end

-- `scenario.each(rows, name, fn)`: one scenario per row.
local function each(rows, name_format, fn)
  if type(rows) ~= "table" or not is_list(rows) or #rows == 0 then
    error("scenario.each(rows, name, fn): rows must be a non-empty list", 2)
  end
  if type(name_format) ~= "string" then error("scenario.each(rows, name, fn): name must be a string", 2) end
  if type(fn) ~= "function" then error("scenario.each(rows, name, fn): fn must be a function", 2) end
  for index = 1, #rows do
    local values, n = row_values(rows[index])
    declare(row_name(name_format, index, values, n), function() fn(unpack(values, 1, n)) end, 3)
  end
end

-- `scenario(name, fn)`, and `scenario.only`, `scenario.skip` with their mark.
local function declarer(form, mark)
  return function(name, fn)
    if type(name) ~= "string" then error(form .. "(name, fn): name must be a string", 3) end
    if type(fn) ~= "function" then error(form .. "(name, fn): fn must be a function", 3) end
    declare(name, fn, 4, mark)
  end
end

-- The `scenario` table: callable, with `each`, `only` and `skip`.
local function scenario_table()
  local plain = declarer("scenario")
  local only, skipped = declarer("scenario.only", "only"), declarer("scenario.skip", "skip")
  return setmetatable({
    each = each,
    only = function(name, fn) only(name, fn) end,
    skip = function(name, fn) skipped(name, fn) end,
  }, {
    __call = function(_, name, fn) plain(name, fn) end,
    __metatable = "scenario",
  })
end

--- Declares a scenario. The runner lists them first, then runs each alone in a fresh state.
--- `scenario.each(rows, name, fn)` declares one per row: `fn` gets the row's values (a sequence is
--- unpacked), and the name is `string.format(name, values...)`. `scenario.only(name, fn)` runs only
--- the scenarios so marked (`--forbid-only` fails them); `scenario.skip(name, fn)` skips one.
library.scenario = scenario_table()

--- Stops the running scenario and counts it as skipped.
function library.skip(reason)
  if not running then error("skip(reason) can only be called inside a scenario", 2) end
  if tearing_down then
    error("skip(reason) cannot be called from after_each: the scenario's verdict is in, "
      .. "and a tear-down can only add a failure", 2)
  end
  report("skip", reason ~= nil and tostring(reason) or "")
  error(SKIP, 0)
end

-- The scenario file's globals ------------------------------------------------------------------------

-- A scenario file runs with globals of its own: the builtins as they are now, before any app
-- runs, and this library, then the app's globals for every other name (`login`, `logged_in`),
-- and its assignments go to the app's globals. So an app that redefines `error` or `tostring`
-- changes them for itself, not for the scenario that tests it.
local scenario_globals = {}
for name, value in next, G do scenario_globals[name] = value end
for name, value in next, library do scenario_globals[name] = value end
setmetatable(scenario_globals, { __index = G, __newindex = G, __metatable = "scenario globals" })

-- The runner loads the scenario file (compiled once per process) with the globals that the first
-- function holds, and calls the second after the file raised.
return function() return scenario_globals end, tear_down_after_error
