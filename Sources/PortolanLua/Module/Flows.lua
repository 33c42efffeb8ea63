-- Flows and steps, as RxFlow has them: the app says what happened (a step, `movie_picked` with a
-- payload), and flows decide where that leads. The engine owns flows and resolves steps
-- (Flow.swift, Router+Steps.swift); a Lua flow supplies its callbacks, kept here. The host runs
-- this chunk once per state and hands the function it returns to the module, which calls it with
-- what declaring and stepping need (`module`) and keeps the table it returns. A misuse is raised
-- with `module.error_at_caller`, at the script's line.
local function check(flow)
  if type(flow) ~= "table" then return "portolan.flow expects a table { name =, steps = {}, adapt = }" end
  if type(flow.name) ~= "string" or flow.name == "" then return "a flow needs a name (a non-empty string)" end
  if type(flow.steps) ~= "table" then return "flow '" .. flow.name .. "' needs steps, a table of functions" end
  for step, fn in pairs(flow.steps) do
    if type(step) ~= "string" or type(fn) ~= "function" then
      return "flow '" .. flow.name .. "': each step is a name and a function(payload) returning a destination"
    end
  end
  if flow.adapt ~= nil and type(flow.adapt) ~= "function" then
    return "flow '" .. flow.name .. "': adapt must be a function(step, payload)"
  end
end

-- The engine resolves a step: from a script's main flow the host routes it; from inside a route it
-- is queued, and this returns a pending handle with where it goes.
local function route_step(module, name, payload)
  if module.role() == "script" then
    return module.outcome(coroutine.yield(module.mark, "step", name, payload))
  end
  local called, ok, result = pcall(module.bridge.enqueue_step, name, payload)
  if not called then return nil, module.route_error(module.bridge.refuse(tostring(ok))) end
  if not ok then return nil, module.route_error(result) end
  return { pending = true, destination = result }
end

return function(module)
  local flows = { list = {} }   -- by the index the host knows each by

  --- Declares a flow: { name =, steps = { step = function(payload) return DEST end }, adapt = }.
  -- The engine asks the flows (Flow.swift); this keeps their functions and gives it their names.
  function flows.flow(flow)
    local problem = check(flow)
    if problem then module.error_at_caller(problem) end
    flows.list[#flows.list + 1] = flow
    local steps = {}
    for step in next, flow.steps do steps[#steps + 1] = step end   -- raw: no __pairs of the app's runs
    module.bridge.add_flow(#flows.list, flow.name, steps, flow.adapt ~= nil)
    return flow
  end

  --- Asks the engine's flows, in declaration order, where a step leads, and routes there, the
  -- step travelling with the route; returns that route's result.
  function flows.step(name, payload)
    if type(name) ~= "string" then module.error_at_caller("portolan.step expects a step name") end
    if payload ~= nil and type(payload) ~= "table" then
      module.error_at_caller("portolan.step's payload must be a table")
    end
    return route_step(module, name, payload or {})
  end

  --- host.run_flow: where the step `name` leads by flow `index`, or nil when the flow leaves it.
  function flows.target(index, name, payload)
    local handler = flows.list[index].steps[name]
    if handler ~= nil then return handler(payload) end
  end

  --- host.adapt_step: what flow `index`'s adapt makes of a step: "keep", "refuse", or "step",
  -- name, payload.
  function flows.adapt(index, name, payload)
    local new_name, new_payload = flows.list[index].adapt(name, payload)
    if new_name == false then return "refuse" end
    if new_name == nil then return "keep" end
    if type(new_name) ~= "string" then
      error("adapt returned a " .. type(new_name) .. "; return a step name, false or nothing", 0)
    end
    return "step", new_name, new_payload or {}
  end

  return flows
end
