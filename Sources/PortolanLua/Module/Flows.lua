-- Flows and steps, as RxFlow has them: the app says what happened (a step, `movie_picked` with a
-- payload), and flows decide where that leads. The host runs this chunk once per state and hands
-- the function it returns to the module, which calls it with what a step's route needs (`module`)
-- and keeps the flows it returns. A misuse is raised with `module.error_at_caller`, at the script's line.
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

-- The step as the flow adapts it: its name and payload, or false and why it refused.
local function adapted(flow, name, payload)
  if flow.adapt == nil then return name, payload end
  local new_name, new_payload = flow.adapt(name, payload)
  if new_name == false then return false, "flow '" .. flow.name .. "' refused step '" .. name .. "'" end
  if new_name == nil then return name, payload end
  if type(new_name) ~= "string" then
    error("adapt of flow '" .. flow.name .. "' returned a " .. type(new_name)
      .. "; return a step name, false or nothing", 0)
  end
  return new_name, new_payload or {}
end

-- The flows as lines for a picture of the app: `flow movies: movie_picked, settings_wanted`.
local function describe(list)
  local lines = {}
  for _, flow in ipairs(list) do
    local steps = {}
    for step in next, flow.steps do steps[#steps + 1] = step end   -- raw: no __pairs of the app's runs
    table.sort(steps)
    lines[#lines + 1] = "flow " .. flow.name .. ": " .. table.concat(steps, ", ")
      .. (flow.adapt and " (adapts steps)" or "")
  end
  return lines
end

return function(module)
  local flows = { list = {} }   -- asked in declaration order

  --- Declares a flow: { name =, steps = { step = function(payload) return DEST end }, adapt = }.
  function flows.flow(flow)
    local problem = check(flow)
    if problem then module.error_at_caller(problem) end
    flows.list[#flows.list + 1] = flow
    return flow
  end

  --- Asks every flow, in declaration order, where a step leads, and routes to the first destination
  -- one returns, the step travelling with the route; returns that route's result. A step a flow
  -- adapts is the step the flows after it see.
  function flows.step(name, payload)
    if type(name) ~= "string" then module.error_at_caller("portolan.step expects a step name") end
    if payload ~= nil and type(payload) ~= "table" then
      module.error_at_caller("portolan.step's payload must be a table")
    end
    local step_name, step_payload = name, payload or {}
    for _, flow in ipairs(flows.list) do
      step_name, step_payload = adapted(flow, step_name, step_payload)
      if step_name == false then return nil, module.route_error { kind = "denied", message = step_payload } end
      local handler = flow.steps[step_name]
      local dest = handler and handler(step_payload)
      if dest ~= nil then
        return module.route(dest, { name = step_name, payload = step_payload })
      end
    end
    return nil, module.route_error { kind = "unreachable", message = "no flow handles step '" .. name .. "'" }
  end

  -- The flows as lines for a picture of the app.
  function flows.describe() return describe(flows.list) end

  return flows
end
