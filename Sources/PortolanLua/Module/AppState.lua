-- The app's state, `portolan.state`: a table of plain data that the host keeps for as long as it
-- lives, across every reload (`:reload`, `--watch`, Swift's `reload()`), since a reload runs the
-- app script again and a script's `logged_in = false` would log the session out. The app names its
-- first values with `portolan.initial_state { ... }`, which sets only the keys the state lacks.
--
-- Plain data is what a snapshot can save and give back: nil, booleans, finite numbers, strings,
-- and tables of them keyed by strings or integers, without metatables or cycles, at most
-- MAX_DEPTH tables deep. The host runs this chunk once per state with that bound (defined in
-- Swift: PortolanModule.maximumStateDepth) and hands the function it returns to the module.
local MAX_DEPTH = ...

-- How a path names `key` under `where`: `where.key` for a name, `where["odd key"]`, `where[3]`;
-- a long key is cut, so a script cannot make the message huge.
local function child_path(where, key)
  if type(key) == "string" then
    local shown = #key <= 40 and key or key:sub(1, 40) .. "..."
    if key:find("^[%a_][%w_]*$") then return where .. "." .. shown end
    return where .. "[" .. string.format("%q", shown) .. "]"
  end
  return where .. "[" .. tostring(key) .. "]"
end

-- Why `value` (found at `where`) is not plain data, or nil when it is. `open` holds the tables
-- being looked through, so that a table inside itself is a cycle while one shared by two keys is not.
local function problem(value, where, depth, open)
  local kind = type(value)
  if kind == "nil" or kind == "boolean" or kind == "string" then return nil end
  if kind == "number" then
    if value ~= value or value == math.huge or value == -math.huge then
      return where .. " is " .. tostring(value) .. ", not a finite number"
    end
    return nil
  end
  if kind ~= "table" then return where .. " holds a " .. kind end
  if getmetatable(value) ~= nil then return where .. " has a metatable" end
  if open[value] then return where .. " contains itself" end
  if depth >= MAX_DEPTH then return where .. " nests tables more than " .. MAX_DEPTH .. " deep" end
  open[value] = true
  for key, item in next, value do
    if type(key) ~= "string" and math.type(key) ~= "integer" then
      return where .. " has a " .. (math.type(key) or type(key)) .. " key; keys are strings or integers"
    end
    local why = problem(item, child_path(where, key), depth + 1, open)
    if why then return why end
  end
  open[value] = nil
  return nil
end

local PLAIN = "the state holds plain data: nil, booleans, finite numbers, strings, and tables of them"
  .. " keyed by strings or integers"

local function copy(value)
  if type(value) ~= "table" then return value end
  local result = {}
  for key, item in next, value do result[key] = copy(item) end
  return result
end

-- The bridge's `clear_metatable`, given with the state (see the chunk's end).
local clear_metatable

-- Makes `state` hold exactly `saved`'s keys, in place (the table scripts hold stays the same), by
-- raw writes only: a metatable a script set on the state runs nothing of its own here, and goes,
-- locked or not, since saved state is plain data.
local function replace(state, saved)
  clear_metatable(state)
  for key in next, state do rawset(state, key, nil) end
  for key, value in next, saved do rawset(state, key, value) end
end

-- `keys` sorted as a report lists them: integers first, then strings, each in order.
local function sorted(keys)
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  return keys
end

-- The keys of `named` that `state` lacks, sorted.
local function missing(named, state)
  local keys = {}
  for key in next, named do
    if rawget(state, key) == nil then keys[#keys + 1] = key end
  end
  return sorted(keys)
end

-- Gives each key of `named` that `state` lacks a copy of its first value; returns those keys,
-- sorted, for the restore's report.
local function fill_missing(state, named)
  local added = missing(named, state)
  for _, key in ipairs(added) do rawset(state, key, copy(named[key])) end
  return added
end

-- Refuses what `portolan.initial_state` cannot take, at the caller's line.
local function check_first(first, error_at_caller)
  if type(first) ~= "table" then
    error_at_caller("portolan.initial_state expects a table of the state's first values, not a " .. type(first))
  end
  local why = problem(first, "portolan.initial_state's table", 0, {})
  if why then error_at_caller(why .. "; " .. PLAIN) end
end

-- The host's app state is a record: `state`, the table scripts hold; `named`, the keys the rules
-- in service name with `initial_state`, with the first value each was given (what a restore gives
-- a key the saved state lacks; a reload starts it afresh, `set_aside`); `before_reload` and
-- `named_before`, the state as the last reload found it and the keys its rules before named, for
-- its report of the keys its rules added and dropped; `last_dropped`, the keys the last rules
-- change dropped, with the values the session had left in them: rules that name one again right
-- after (a canary's revert to the rules before a bad bundle, an edit undone) get the session's
-- value back, not the first one; `returned` lists those keys.

--- Sets each key of `first` that the state does not hold yet, and returns the state: the first
-- load sets them all, a reload keeps what the session changed and adds the keys it did not know.
local function initial_state(app, first)
  for key, value in next, first do
    if rawget(app.state, key) == nil then
      if app.last_dropped[key] ~= nil then
        rawset(app.state, key, copy(app.last_dropped[key]))
        app.returned[#app.returned + 1] = key
      else
        rawset(app.state, key, value)
      end
    end
    if app.named[key] == nil then app.named[key] = copy(value) end
  end
  return app.state
end

-- For a reload (host.take_rules): the function that puts the state back as it is now, should the
-- reload fail; or nil and why the state is not plain data (the reload then does not start). The
-- rules about to run name their keys afresh. Only raw reads and writes: a metatable the failed
-- script set on the state runs nothing of its own here.
local function set_aside(app)
  local why = problem(app.state, "portolan.state", 0, {})
  if why then
    return nil, "cannot reload: " .. why .. "; " .. PLAIN
      .. ". Set it right (portolan.state.x = nil) and reload again"
  end
  local saved, saved_named, saved_dropped = copy(app.state), app.named, app.last_dropped
  app.named, app.before_reload, app.named_before, app.returned = {}, saved, saved_named, {}
  return function()
    replace(app.state, saved)
    app.named, app.last_dropped = saved_named, saved_dropped
  end
end

-- The keys of the state that `before` names and the rules in service no longer do, taken out of
-- it; returns them, sorted, and what they held.
local function drop_unnamed(app, before)
  local dropped, values = {}, {}
  for key in next, before do
    if app.named[key] == nil and rawget(app.state, key) ~= nil then dropped[#dropped + 1] = key end
  end
  for _, key in ipairs(dropped) do
    values[key] = copy(rawget(app.state, key))
    rawset(app.state, key, nil)
  end
  return sorted(dropped), values
end

-- For a reload, once its script ran (host.carry_state_keys): the keys its rules named that the
-- state lacked and that took their first value (set already, by `initial_state`), the keys the
-- rules before named that these no longer do, which leave the state now, and the keys the change
-- before dropped that these rules brought back. A reload that fails puts all back.
local function carry_keys(app)
  local is_returned = {}
  for _, key in ipairs(app.returned) do is_returned[key] = true end
  local added = {}
  for _, key in ipairs(missing(app.named, app.before_reload)) do
    if not is_returned[key] then added[#added + 1] = key end
  end
  local dropped
  dropped, app.last_dropped = drop_unnamed(app, app.named_before)
  return added, dropped, sorted(app.returned)
end

-- The names of the keys the rules in service name, sorted: what a snapshot saves beside the
-- state, so that a restore under rules that no longer name one drops it as a reload does.
-- (An integer key is a position in a list, not a name a rules change drops.)
local function named_keys(app)
  local keys = {}
  for key in next, app.named do
    if type(key) == "string" then keys[#keys + 1] = key end
  end
  return sorted(keys)
end

-- For a snapshot (host.state_for_snapshot): the state itself, or nil and why it is not plain data.
local function for_snapshot(app)
  local why = problem(app.state, "portolan.state", 0, {})
  if why then return nil, "cannot save " .. why .. "; " .. PLAIN end
  return app.state
end

-- For a restore (host.restore_state): the state becomes what a snapshot saved, and each key the
-- rules in service name that it lacks takes its first value, as a reload would give it: rules
-- that added a key since the snapshot was written find it set. `saved_named` lists the keys the
-- rules that saved it named: each of them these rules no longer name is dropped, as a reload
-- drops it. Returns the keys added and those dropped, each sorted. `exactly`: only what was
-- saved, for putting back the state a refused restore replaced.
local function restore(app, saved, exactly, saved_named)
  replace(app.state, saved)
  if exactly then return {}, {} end
  local before = {}
  for _, key in ipairs(saved_named or {}) do before[key] = true end
  -- The session is the snapshot's now: what the last rules change dropped is not its own.
  app.last_dropped = {}
  return fill_missing(app.state, app.named), (drop_unnamed(app, before))
end

return function(error_at_caller, without_metatable)
  clear_metatable = without_metatable
  local app = { state = {}, named = {}, before_reload = {}, named_before = {}, last_dropped = {}, returned = {} }
  return {
    state = app.state,
    initial_state = function(first)
      -- Checked here, in the function the script called, so that an error names its line.
      check_first(first, error_at_caller)
      return initial_state(app, first)
    end,
    set_aside = function() return set_aside(app) end,
    for_snapshot = function() return for_snapshot(app) end,
    restore = function(saved, exactly, saved_named) return restore(app, saved, exactly, saved_named) end,
    carry_keys = function() return carry_keys(app) end,
    named_keys = function() return named_keys(app) end,
  }
end
