-- The prelude runs in the host's environment (HostEnvironment.c), so the builtins it calls are the
-- sandbox's whatever the app rebinds; what the app must reach, it sets in the app's globals (`_G`).
local portolan = _G.portolan
local lines = setmetatable({}, { __mode = "k" })
_G.__portolan_at = function(line, t)
  if type(t) == "table" and lines[t] == nil then lines[t] = line end
  return t
end

-- The node ids the root's `explore` names (docs/explore.md), as { { field =, id = } }: the keys of
-- its contexts, and the ids listed in back and unreachable.
local function explore_nodes_of(explore)
  if type(explore) ~= "table" then return nil end
  local named = {}
  if type(explore.contexts) == "table" then
    for id in pairs(explore.contexts) do
      if type(id) == "string" then named[#named + 1] = { field = "contexts", id = id } end
    end
  end
  for _, field in ipairs { "back", "unreachable" } do
    if type(explore[field]) == "table" then
      for _, id in ipairs(explore[field]) do
        if type(id) == "string" then named[#named + 1] = { field = field, id = id } end
      end
    end
  end
  table.sort(named, function(a, b) return a.field .. " " .. a.id < b.field .. " " .. b.id end)
  return named
end

-- The data of the root's migrations (renamed, removed, moved; not the context functions), as
-- lists the linter reads: { { version =, renamed = { { old, new } }, removed = { id }, moved = { { id, lineage } } } }.
local function migrations_of(migrations)
  if type(migrations) ~= "table" then return nil end
  local list = {}
  for version, step in pairs(migrations) do
    if math.type(version) == "integer" and type(step) == "table" then
      local item = { version = version, renamed = {}, removed = {}, moved = {} }
      for old, new in pairs(type(step.renamed) == "table" and step.renamed or {}) do
        if type(old) == "string" and type(new) == "string" then item.renamed[#item.renamed + 1] = { old, new } end
      end
      for _, id in ipairs(type(step.removed) == "table" and step.removed or {}) do
        if type(id) == "string" then item.removed[#item.removed + 1] = id end
      end
      for id, lineage in pairs(type(step.moved) == "table" and step.moved or {}) do
        if type(id) == "string" and type(lineage) == "table" then
          local ids = {}
          for _, ancestor in ipairs(lineage) do if type(ancestor) == "string" then ids[#ids + 1] = ancestor end end
          item.moved[#item.moved + 1] = { id, ids }
        end
      end
      list[#list + 1] = item
    end
  end
  return list
end

-- The strings of a list (`schemes`, `hosts`), or nil when it is no table.
local function strings_of(list)
  if type(list) ~= "table" then return nil end
  local strings = {}
  for _, item in ipairs(list) do
    if type(item) == "string" then strings[#strings + 1] = item end
  end
  return strings
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
      report.case_insensitive = app.spec.case_insensitive_routes == true
      report.significant_trailing_slash = app.spec.significant_trailing_slash == true
      report.schemes = strings_of(app.spec.schemes)
      report.hosts = strings_of(app.spec.hosts)
      if math.type(app.spec.version) == "integer" then report.version = app.spec.version end
      report.migrations = migrations_of(app.spec.migrations)
      report.explore_nodes = explore_nodes_of(app.spec.explore)
    end
  end
  return report
end
