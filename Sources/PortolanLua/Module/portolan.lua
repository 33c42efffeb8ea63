-- The Lua half of the `portolan` module. The host runs this chunk once per state with a table of
-- Swift functions (`bridge`); it returns the functions the host calls back and the loader of the
-- public module. It is compiled into the host (SwiftPM's embedInCode; PortolanModule.swift).
--
-- What lives here is what is easier and safer in Lua: argument checks that raise at the caller's
-- line, the yields that hand a route to the host, error objects with `__tostring`, and the node
-- tables that handlers receive as `node`. Its parts in files of their own come as arguments:
-- ValuePrinter.lua, NodeDescription.lua (the node checker, the root's options picked out),
-- URLRules.lua, Flows.lua, AppState.lua, Decisions.lua, Snapshots.lua and Stack.lua; then the
-- names of the events scripts observe (RouterEvent.Name.observedByScripts).
local bridge, show_value, describe, root_options, make_url_rules, make_flows, make_state, make_decisions,
  make_snapshots, make_stack, EVENTS = ...
local portolan = {}
local host = {}

-- A script's misuse of the module is raised at the script's line, skipping the module's own frames
-- (CallerErrors.c): `error(message, 2)` would name a line of the module when it was tail-called.
local error_at_caller = bridge.error_at_caller

-- The module runs in the host's environment (HostEnvironment.c): an app that rebinds `coroutine`
-- cannot change what a route returns. Output goes through the host (`_G` is the scripts' globals).
_G.print = function(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  bridge.write(table.concat(parts, "\t"))
end

-- A yield the host serves (route, plan, wait) starts with this marker; any other yield is the
-- script's own business.
local MARK = "\0portolan"

-- Which coroutines the host drives: "script" (a script's main flow) or "handler".
local driven = setmetatable({}, { __mode = "k" })
local nodes = {}          -- id -> the node table the app declared
local known_events = {}   -- the observers themselves are the host's (ScriptRules.observers)
for _, event in ipairs(EVENTS) do known_events[event] = true end

local function role()
  return driven[coroutine.running()]
end

-- Errors ------------------------------------------------------------------------------------------

-- Every metatable the module hands scripts is locked (`__metatable`): `getmetatable(err)` answers
-- its name, so a script cannot rewrite how every error prints or what a request's methods do. The
-- module knows its own objects by `metatable_of`, which sees through the lock.
local metatable_of = bridge.metatable_of

local RouteError = { __name = "portolan.error", __metatable = "portolan.error" }
function RouteError.__tostring(e)
  local text = e.kind
  if e.instruction then text = text .. " at " .. e.instruction end
  text = text .. ": " .. e.message
  if e.executed and #e.executed > 0 then
    text = text .. " (after " .. #e.executed .. " instruction" .. (#e.executed == 1 and "" or "s") .. ")"
  end
  return text
end

local function route_error(fields)
  fields.executed = fields.executed or {}
  return setmetatable(fields, RouteError)
end

local function outcome(ok, result)
  if ok then return result end
  return nil, route_error(result)
end

-- URLs (URLRules.lua) ---------------------------------------------------------------------------

local url_rules = make_url_rules(bridge, route_error)
portolan.redirect_rule, portolan.match = url_rules.redirect_rule, url_rules.match

-- Routing -----------------------------------------------------------------------------------------

--- Routes to `dest` and returns the executed instructions, or nil and an error.
-- From a handler, guard, interceptor or observer the route is queued instead: it runs after the
-- current one, and this returns a pending handle at once.
local function route(dest, step)
  if role() == "script" then
    return outcome(coroutine.yield(MARK, "route", dest, step))
  end
  -- A destination that cannot cross to Swift (cyclic, too deep) is an invalid route, returned.
  local called, ok, result = pcall(bridge.enqueue, dest, step)
  if not called then return nil, route_error(bridge.refuse(tostring(ok))) end
  if not ok then return nil, route_error(result) end
  return { pending = true, destination = dest }
end
function portolan.route(dest) return route(dest) end

-- The active stack (Stack.lua): portolan.push(entry, { launch =, pop_up_to = }), portolan.back(distance),
-- the top screen's context changed in place, portolan.update(entry) and portolan.merge(entry), or
-- remembered for back, portolan.push_context(entry), and the stack edited below its top,
-- portolan.reset(path), portolan.remove(entry), portolan.replace(entry, by).
portolan.push, portolan.back, portolan.update, portolan.merge, portolan.push_context,
  portolan.reset, portolan.remove, portolan.replace = make_stack(bridge, route, error_at_caller, role, outcome, MARK)

-- Flows and steps (Flows.lua): portolan.flow { name =, steps =, adapt = } and portolan.step(name, payload).
local flows = make_flows {
  bridge = bridge, role = role, outcome = outcome, route_error = route_error, mark = MARK,
  error_at_caller = error_at_caller,
}
portolan.flow, portolan.step = flows.flow, flows.step

-- The app's state (AppState.lua): portolan.state, kept across reloads, and portolan.initial_state.
local app_state = make_state(error_at_caller, bridge.clear_metatable)
portolan.initial_state = app_state.initial_state

-- A plan's list of instructions keeps the list a route returns (so it compares equal to one); what
-- the decisions said is read through its locked metatable: planned.destination, .requested, .redirects.
local function plan_outcome(ok, result, details)
  details = details or {}   -- a value that never reached the planner (it could not cross to Swift)
  if not ok then
    local err = route_error(result)
    err.destination, err.requested, err.redirects = details.destination, details.requested, details.redirects
    return nil, err
  end
  return setmetatable(result, { __index = details, __name = "portolan.plan", __metatable = "portolan.plan" })
end

--- What portolan.route(dest) would do now, decided without doing it: the guards, interceptors,
-- redirects and can_leave answer (request.dry_run is true), and nothing else runs.
function portolan.plan(dest)
  if role() ~= "script" then
    error_at_caller("portolan.plan can only be called from a script's main flow, not from a handler")
  end
  return plan_outcome(coroutine.yield(MARK, "plan", dest))
end

--- Re-runs the guards and interceptors for the active path, as if routing to it (call it when state
-- changes, as at a logout): nothing to do when they pass, the redirect's route when one redirects,
-- or nil and an error of kind `denied`.
function portolan.refresh()
  if role() == "script" then
    return outcome(coroutine.yield(MARK, "refresh"))
  end
  local ok, result = bridge.enqueue(bridge.active_entries())
  if not ok then return nil, route_error(result) end
  return { pending = true, destination = "refresh" }
end

--- The live path to the node `id` (with these context values, if given), wherever it is in the
-- live tree, kept stacks included, or nil: portolan.route(portolan.find("movie", { id = 42 })).
-- With `nth`, the nth copy of the node along one path from the root: the second product of a stack.
function portolan.find(id, context, nth)
  if type(id) ~= "string" then error_at_caller("portolan.find expects a node id") end
  if context ~= nil and type(context) ~= "table" then error_at_caller("portolan.find's context must be a table") end
  if nth ~= nil and (math.type(nth) ~= "integer" or nth < 1) then
    error_at_caller("portolan.find's nth must be a whole number from 1, not " .. tostring(nth))
  end
  local ok, result = bridge.find(id, context, nth)
  if not ok then error_at_caller(tostring(route_error(result))) end
  return result
end

--- A tab tap: switches `switch_id` to its child `child_id`, showing what the child keeps open.
function portolan.switch_to(switch_id, child_id)
  if type(switch_id) ~= "string" or type(child_id) ~= "string" then
    error_at_caller("portolan.switch_to expects a switch node's id and a child's id")
  end
  local ok, result = bridge.switch_destination(switch_id, child_id)
  if not ok then return nil, route_error(result) end
  return portolan.route(result)
end

portolan.snapshot, portolan.restore = make_snapshots(bridge, error_at_caller, role, MARK) -- Snapshots.lua

--- The finished routes, newest last: { destination =, requested =, executed =, ok =, error = }.
function portolan.history() return bridge.history() end

--- The destination a guard's redirect { resume = true } set aside, or nil.
function portolan.pending() return bridge.pending() end

--- Routes to the destination a redirect { resume = true } set aside, and forgets it; nil when
-- nothing is pending. A destination asked for by URL is routed by that URL (its handlers' info.url).
function portolan.resume()
  local script = role() == "script"   -- a script routes now; a handler, guard or observer queues
  local ok, result
  if script then ok, result = coroutine.yield(MARK, "resume") else ok, result = bridge.resume() end
  if ok == nil then return nil elseif not ok then return nil, route_error(result) end
  return script and result or { pending = true, destination = result }
end

--- Suspends the calling handler (or script) for `seconds`; the router waits, within its timeout.
function portolan.wait(seconds)
  if type(seconds) ~= "number" or not (seconds >= 0 and seconds <= bridge.max_wait_seconds) then
    error_at_caller(string.format("portolan.wait expects a number of seconds from 0 to %d, not %s",
      bridge.max_wait_seconds, tostring(seconds)))
  end
  if role() == nil then
    error_at_caller("portolan.wait can only be called from a handler or a script's main flow")
  end
  coroutine.yield(MARK, "wait", seconds)
end

function portolan.active_path() return bridge.active_path() end
function portolan.active_entries() return bridge.active_entries() end
function portolan.tree() return bridge.tree() end

local function checked(ok, message)
  if not ok then error_at_caller(message) end
  return true
end

function portolan.did_enter(entry) return checked(bridge.did_enter(entry)) end
function portolan.did_leave(id) return checked(bridge.did_leave(id)) end
function portolan.did_remove(entry) return checked(bridge.did_remove(entry)) end
function portolan.did_switch(switch_id, child_id) return checked(bridge.did_switch(switch_id, child_id)) end

--- Drops the stacks switch nodes keep for their other children (all, or switch_id's): the entries.
function portolan.reset_tabs(switch_id)
  if switch_id ~= nil and type(switch_id) ~= "string" then
    error_at_caller("portolan.reset_tabs expects a switch node's id, or nothing for every switch")
  end
  local ok, result = bridge.reset_tabs(switch_id)
  return checked(ok, result) and result
end

-- Declaring the app -------------------------------------------------------------------------------

--- Declares the app's graph; `spec` is the root node table.
function portolan.app(spec)
  if type(spec) ~= "table" then
    error_at_caller("portolan.app expects the root node table, not a " .. type(spec))
  end
  -- The host's builder of this declaration: each checked node goes straight to it (NodeDescription).
  local found, anywhere, emit, declare = {}, 0, bridge.declaration()
  local described, message = describe(spec, "the root", found, emit)
  if not described then error_at_caller(message) end
  if spec.anywhere ~= nil and type(spec.anywhere) ~= "table" then
    error_at_caller("anywhere must be a list of node tables")
  end
  for index, node in ipairs(spec.anywhere or {}) do
    local ok, why = describe(node, "anywhere node " .. index, found, emit)
    if not ok then error_at_caller(why) end
    anywhere = index
  end
  -- The root's options cross as written: the host reads and checks them (AppOptions.swift). One
  -- that cannot cross (a cyclic table) is a mistake of the script's too.
  local called, ok, why = pcall(declare, anywhere, root_options(spec))
  if not called then error_at_caller("the root's options cannot be read: " .. tostring(ok)) end
  if not ok then error_at_caller(why) end
  nodes = found
  return spec
end

--- Runs another Lua file (an app script) in this state, as if its text stood here.
function portolan.load(path)
  if type(path) ~= "string" then error_at_caller("portolan.load expects a file path") end
  local chunk, message = bridge.loadfile(path)
  if not chunk then error_at_caller(message) end
  return chunk()
end

-- Guards and interceptors (Decisions.lua) --------------------------------------------------------

local decisions = make_decisions {
  error_at_caller = error_at_caller, metatable_of = metatable_of, keep_caller = bridge.keep_caller,
  intercepting = bridge.intercepting, node = function(id) return nodes[id] end,
}
portolan.deny, portolan.redirect, portolan.intercept = decisions.deny, decisions.redirect, decisions.intercept

-- The engine asks the interceptors, each guard on a route's way and the flows (HostCore+LuaHandlers,
-- HostCore+Flows): to the script, each call is a handler's.
local function as_handler(fn)
  return function(...)
    driven[coroutine.running()] = "handler"
    return fn(...)
  end
end
host.run_interceptors, host.run_guard = as_handler(decisions.run), as_handler(decisions.run_guard)
host.run_flow, host.adapt_step = as_handler(flows.target), as_handler(flows.adapt)

-- Handlers and scripts, as the host starts them -----------------------------------------------------

function host.run_script(fn, ...)
  driven[coroutine.running()] = "script"
  return fn(...)
end

-- Runs a REPL chunk and returns its results as the text the REPL prints.
function host.run_and_show(fn)
  local results = table.pack(fn())
  local shown = {}
  for i = 1, results.n do shown[i] = host.show(results[i]) end
  return table.unpack(shown, 1, results.n)
end

-- `info.instruction`, `.destination` (the whole path), `.step`, `.previous` (the entry an update replaced)
-- and `.under` (the screen an inserted or moved one now stands under) are built when a handler reads them.
local LAZY_INFO = { instruction = bridge.instruction, destination = bridge.destination, step = bridge.step,
  previous = bridge.previous, under = bridge.under }
-- The shared `info` is cleared of its other fields only when a call left one there, which a lazy read,
-- a URL or a handler's own write marks: clearing nine absent fields was half of run_handler's cost.
local Info = { __metatable = "portolan.info" }
local shared_info, info_holds_more = setmetatable({}, Info), false
function Info.__index(info, key)
  local read, value = LAZY_INFO[key], nil
  if read then value = read() rawset(info, key, value) info_holds_more = info_holds_more or info == shared_info end
  return value
end
function Info.__newindex(info, key, value)
  if value ~= nil then info_holds_more = info_holds_more or info == shared_info rawset(info, key, value) end
end

-- A call allocates no table (docs/rules.md: what a handler may keep past its call). An entry without
-- a context is one table per id, handed to every call about it; one with a context is made per call.
local plain_entries = {}
local function entry_of(id, context)
  if context then return { id = id, context = context } end
  local entry = plain_entries[id]
  if not entry then entry = { id = id, context = {} } plain_entries[id] = entry end
  return entry
end

-- `info` is one table, set anew for each call; a call nested in another's (no route makes one) gets its
-- own. Its owner is held weakly: a handler that failed must not keep its coroutine's stack alive.
local owner = setmetatable({}, { __mode = "v" })
local function info_for(co)   -- run_handler reads it in place when `co` owns it already
  local last = owner.info
  if last ~= nil and coroutine.status(last) == "normal" then return setmetatable({}, Info) end
  owner.info = co
  return shared_info
end

-- id, field: pinned strings; entry_id: a switch's child only; context: when there is one. can_leave: no info.
-- It runs before every handler, so the usual case makes no call of its own: a context-free entry
-- already made and the shared `info` already this thread's are read in place.
local running = coroutine.running
function host.run_handler(id, field, context, entry_id, index, count, animated, url)
  local co = running()
  if driven[co] == nil then driven[co] = "handler" end
  local node = nodes[id]
  local handler = node and node[field]
  if handler == nil then return end
  local entry = not context and plain_entries[entry_id or id] or entry_of(entry_id or id, context)
  if field == "context_task" then return handler(node, entry, setmetatable({}, Info)) end
  if index == nil then return handler(node, entry) end
  local info = owner.info == co and shared_info or info_for(co)
  if info_holds_more and info == shared_info then
    info.instruction, info.destination, info.step, info.previous, info.under = nil, nil, nil, nil, nil   -- LAZY_INFO
    info.url, info.query, info.query_items, info.fragment, info_holds_more = nil, nil, nil, nil, false
  end
  info.index, info.count, info.last, info.animated = index, count, index == count, animated
  if url then
    info.url, info.query, info.query_items, info.fragment = url.url, url.query, url.query_items, url.fragment
  end
  return handler(node, entry, info)
end

-- Events ------------------------------------------------------------------------------------------

--- Observes router events: will_route, instruction, did_route, failed, redirected, rolled_back,
-- tree_carried.
-- The host keeps the observers and calls each itself (HostCore+Events.swift); a failed route's error
-- reaches its observers as an error object, made by a wrapper made once, here.
function portolan.on(event, fn)
  if not known_events[event] then
    error_at_caller("unknown event '" .. tostring(event) .. "'; expected one of " .. table.concat(EVENTS, ", "))
  end
  if type(fn) ~= "function" then error_at_caller("portolan.on expects a function") end
  local observer = fn
  if event == "failed" then observer = function(err, ...) return fn(route_error(err), ...) end end
  bridge.observe(event, observer)
end

-- Hot reload ------------------------------------------------------------------------------------

-- The Lua half of a reload (RulesReload.swift owns the whole): takes out what the app script
-- registered, so that it registers afresh when it runs again, and returns the function that puts
-- it all back if the reload fails. The nodes stay until the script declares its app again: the
-- router in service still calls their handlers until then. The state stays as the session left it,
-- copied to be put back. (Function redirect rules are the host's: HostRedirectRules.swift.)
function host.take_rules()
  local restore_state, why = app_state.set_aside()
  if not restore_state then error(why, 0) end
  local taken_nodes, taken_interceptors, taken_flows = nodes, decisions.list, flows.list
  decisions.list, flows.list = {}, {}
  return function()
    nodes, decisions.list, flows.list = taken_nodes, taken_interceptors, taken_flows
    restore_state()
  end
end

-- The text of a value as the REPL prints it (compact when `compact` is true); a snapshot's app state
-- (HostCore+Snapshots.swift): the state to save, and the restore of a saved one; the keys a reload's
-- rules added to the state (RulesReload.swift).
host.show, host.state_for_snapshot, host.restore_state = show_value, app_state.for_snapshot, app_state.restore
host.carry_state_keys, host.state_keys_named = app_state.carry_keys, app_state.named_keys

-- Scripts reach the module's functions through wrappers that keep the script's frame on the stack,
-- so that a misuse names the script's line even from a tail call (`return portolan.redirect(x)`).
for name, fn in next, portolan do portolan[name] = bridge.keep_caller(fn) end

-- The table itself, the same for as long as the host lives: scripts write into it.
portolan.state = app_state.state

-- The host preloads this loader, so that `require "portolan"` gives this very table.
return host, function() return portolan end
