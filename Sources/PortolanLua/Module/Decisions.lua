-- Guards and interceptors: what decides whether a route goes on. The host runs this chunk once per
-- state and hands the function it returns to the module, which calls it with what deciding needs
-- (`module`) and keeps the table it returns: portolan.deny, portolan.redirect and portolan.intercept
-- for scripts, `run` and `run_guard` for the host (`host.run_interceptors`, `host.run_guard`: the
-- engine asks the interceptors, then each guard on a route's way), and `list`, the interceptors,
-- which a reload sets aside. A misuse is raised with `module.error_at_caller`, at the script's line.

-- Locked, as every metatable the module hands out: the module knows them by `metatable_of`.
local Deny = { __name = "portolan.deny", __metatable = "portolan.deny" }
local Redirect = { __name = "portolan.redirect", __metatable = "portolan.redirect" }
local Request = {}   -- a request's methods
local RequestMetatable = { __index = Request, __name = "portolan.request", __metatable = "portolan.request" }

-- nil to go on; otherwise "deny", reason or "redirect", destination. A wrong value is raised as
-- `named` (who, unless the failure already names who: "the guard of 'x' failed: it returned ...").
local function verdict(decision, who, metatable_of, named)
  if decision == nil or decision == true then return nil end
  if decision == false then return "deny", "denied by " .. who end
  local mt = metatable_of(decision)
  if mt == Deny then return "deny", decision.reason end
  if mt == Redirect then return "redirect", decision.destination, decision.resume end
  error((named or who) .. " returned a " .. type(decision)
    .. "; expected nothing, false, portolan.deny(reason) or portolan.redirect(dest)", 0)
end

--- request:goes_to(id): whether the route ends at, or passes through, the node `id`. Kept on the
-- stack like the module's functions, so a misuse names the script's line.
local function define_goes_to(module)
  Request.goes_to = module.keep_caller(function(self, id)
    if module.metatable_of(self) ~= RequestMetatable then
      module.error_at_caller("request:goes_to(id) is a method: call it with a colon")
    end
    for _, entry in ipairs(self.destination) do
      if entry.id == id then return true end
    end
    return false
  end)
end

--- Asks the interceptors in turn: "pass", or the first "deny", reason or "redirect", destination, resume.
local function asker(decisions, module)
  return function(request)
    setmetatable(request, RequestMetatable)
    for _, fn in ipairs(decisions.list) do
      local kind, value, resume = verdict(fn(request), "an interceptor", module.metatable_of)
      if kind then return kind, value, resume end
    end
    return "pass"
  end
end

--- Asks the guard of the node `id` (the engine asks each node on a route's way in turn): "pass",
-- or "deny", reason or "redirect", destination, resume.
local function guard_asker(module)
  return function(id, request)
    setmetatable(request, RequestMetatable)
    local node = module.node(id)
    if not (node and node.guard) then return "pass" end
    local who = "the guard of '" .. id .. "'"
    local kind, value, resume = verdict(node.guard(node, request), who, module.metatable_of, "it")
    if kind then return kind, value, resume end
    return "pass"
  end
end

return function(module)
  local error_at_caller = module.error_at_caller
  local decisions = { list = {} }
  define_goes_to(module)
  decisions.run = asker(decisions, module)
  decisions.run_guard = guard_asker(module)

  function decisions.deny(reason)
    return setmetatable({ reason = reason ~= nil and tostring(reason) or "denied" }, Deny)
  end

  --- A guard's or interceptor's redirect. With { resume = true }, the destination the route was
  -- going to is remembered: portolan.resume() routes there later (after a login, say).
  function decisions.redirect(dest, options)
    if dest == nil then error_at_caller("portolan.redirect expects a destination") end
    if options ~= nil and type(options) ~= "table" then
      error_at_caller("portolan.redirect's options must be a table, as in { resume = true }")
    end
    return setmetatable({ destination = dest, resume = options ~= nil and options.resume == true }, Redirect)
  end

  --- Adds a global interceptor: fn(request) returns nothing to pass, false or portolan.deny(reason)
  -- to stop the route, portolan.redirect(dest) to send it elsewhere.
  function decisions.intercept(fn)
    if type(fn) ~= "function" then error_at_caller("portolan.intercept expects a function") end
    decisions.list[#decisions.list + 1] = fn
    module.intercepting()
  end

  return decisions
end
