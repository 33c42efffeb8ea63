-- The prelude runs in the host's environment (HostEnvironment.c), so the builtins it calls are the
-- sandbox's whatever the app rebinds; what the app must reach, it sets in the app's globals (`_G`).
local portolan = _G.portolan
local ROOT_OPTIONS = ...   -- RootOption's names
local lines = setmetatable({}, { __mode = "k" })
_G.__portolan_at = function(line, t)
  if type(t) == "table" and lines[t] == nil then lines[t] = line end
  return t
end

-- The root's options as the script wrote them, the fields RootOption names: the linter reads them
-- as portolan.app does (AppOptions.swift), once, and reports each mistake at its own line.
local function options_of(spec)
  local options = {}
  for _, name in ipairs(ROOT_OPTIONS) do options[name] = spec[name] end
  return options
end

-- "file:line: " of the code that called the function calling this one (error's level 1 is pcall,
-- 2 this function, 3 its caller, 4 the code that called it).
local function where()
  local _, message = pcall(error, "", 4)
  return message
end

local apps, rules, function_rules = {}, {}, 0

local declare = portolan.app
portolan.app = function(spec)
  local ok, why = pcall(declare, spec)
  apps[#apps + 1] = { spec = spec, where = where(), declared = ok, why = not ok and tostring(why) or nil }
  return spec
end

local add_rule = portolan.redirect_rule
portolan.redirect_rule = function(from, to)
  if type(from) == "function" and to == nil then
    function_rules = function_rules + 1
  elseif type(from) == "string" and type(to) == "string" then
    rules[#rules + 1] = { from = from, to = to, where = where() }
  end
  -- A refused rule is reported by the linter; the script goes on.
  pcall(add_rule, from, to)
end

local function describe(node, visiting)
  if type(node) ~= "table" then return { type = type(node) } end
  if visiting[node] then
    return { type = "table", cycle = true, line = lines[node], id = type(node.id) == "string" and node.id or nil }
  end
  visiting[node] = true
  local d = { type = "table", line = lines[node], fields = {}, values = {} }
  for key, value in pairs(node) do
    if type(key) == "string" then
      d.fields[key] = type(value)
      -- The value of an option written as a plain value, for the linter to say what is wrong with it.
      if type(value) == "string" or type(value) == "number" or type(value) == "boolean" then d.values[key] = value end
    end
  end
  if type(node.id) == "string" then d.id = node.id end
  if node.kind ~= nil then d.kind = tostring(node.kind) end
  if type(node.active) == "string" then d.active = node.active end
  local routes = node.route
  if type(routes) == "string" then routes = { routes } end
  if type(routes) == "table" then
    d.routes = {}
    for _, pattern in ipairs(routes) do
      if type(pattern) == "string" then d.routes[#d.routes + 1] = pattern else d.bad_route = type(pattern) end
    end
    if type(routes.case_insensitive) == "boolean" then d.route_case_insensitive = routes.case_insensitive end
    if type(routes.significant_trailing_slash) == "boolean" then
      d.route_significant_trailing_slash = routes.significant_trailing_slash
    end
  end
  if type(node.push) == "table" then
    d.pushes = {}
    for _, id in ipairs(node.push) do
      if type(id) == "string" then d.pushes[#d.pushes + 1] = id end
    end
  end
  if type(node.children) == "table" then
    d.children = {}
    for index, child in ipairs(node.children) do d.children[index] = describe(child, visiting) end
  end
  visiting[node] = nil
  return d
end

-- What the app declared, as a plain description: the checker calls this once the app has run.
_G.__portolan_check_collect = function()
  local app = apps[#apps]
  local report = { apps = #apps, rules = rules, function_rules = function_rules }
  if app then
    report.where = app.where
    report.declared = app.declared
    report.why = app.why
    report.root = describe(app.spec, {})
    if type(app.spec) == "table" then
      local anywhere = app.spec.anywhere
      report.anywhere_type = type(anywhere)
      if type(anywhere) == "table" then
        report.anywhere = {}
        for index, node in ipairs(anywhere) do report.anywhere[index] = describe(node, {}) end
      end
      report.options = options_of(app.spec)
    end
  end
  return report
end
