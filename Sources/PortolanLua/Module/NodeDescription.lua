-- The checkers of the tables an app declares: each node's fields handed straight to the host's
-- builder of the graph (ids, kinds, children, handler names, routes), and the root table's
-- options; each returns nil and a message naming what is wrong instead. The host runs this chunk once per state
-- with its list of handler fields (HandlerName), the engine's depth limit
-- (NavigationGraph.maximumDepth) and the bounds of the root's numeric options (RootOption.range,
-- `{ max_redirects = { 0, 1000 }, ... }`), the names of the launch modes (LaunchMode) and those of
-- the switch nodes' back behaviours (TabBackBehavior), and hands the two functions to the module.
local HANDLERS, MAX_DEPTH, BOUNDS, LAUNCH_MODES, BACK_BEHAVIOURS = ...

local function is_one_of(value, names)
  for _, name in ipairs(names) do
    if value == name then return true end
  end
  return false
end

-- A node's `push`: a list of the ids of nodes it may push (false without one), or nil and what is wrong.
local function push_list(push, name)
  if push == nil then return false end
  if type(push) ~= "table" then
    return nil, name .. ": push must be a list of node ids, as in { \"product\" }, not a " .. type(push)
  end
  local ids = {}
  for index, id in ipairs(push) do
    if type(id) ~= "string" or id == "" then
      return nil, name .. ": push[" .. index .. "] must be a node id, not " .. tostring(id)
    end
    ids[index] = id
  end
  return ids
end

-- A node's `key`: the context fields that make an entry the screen it is, as one name or a list
-- of them (false without one), or nil and what is wrong.
local function key_list(key, name)
  if key == nil then return false end
  if type(key) == "string" and key ~= "" then return key end
  if type(key) ~= "table" or #key == 0 then
    return nil, name .. ": key must be a context field's name or a list of them, as in { \"id\" }, not "
      .. (type(key) == "string" and '""' or "a " .. type(key))
  end
  for index, field in ipairs(key) do
    if type(field) ~= "string" or field == "" then
      return nil, name .. ": key[" .. index .. "] must be a context field's name, not " .. tostring(field)
    end
  end
  return key
end

-- A node's `route`: its pattern or list of patterns (false without one), or nil and what is wrong.
-- A list may also say how its patterns read case and a final slash (`case_insensitive`,
-- `significant_trailing_slash`), where they differ from the root's.
local ROUTE_OPTIONS = { case_insensitive = true, significant_trailing_slash = true }

local function route_list(route, name)
  if type(route) == "string" then return route end
  if route == nil then return false end
  if type(route) ~= "table" then
    return nil, name .. ": route must be a URL pattern or a list of them, not a " .. type(route)
  end
  for key, value in pairs(route) do
    if ROUTE_OPTIONS[key] then
      if type(value) ~= "boolean" then
        return nil, name .. ": route's " .. key .. " must be true or false, not a " .. type(value)
      end
    elseif math.type(key) ~= "integer" then
      return nil, name .. ": route has no option " .. tostring(key)
        .. " (it lists URL patterns, and may set case_insensitive and significant_trailing_slash)"
    elseif type(value) ~= "string" then
      return nil, name .. ": route must be a URL pattern or a list of them"
    end
  end
  return route
end

-- What is wrong with a node's `keep` and `back`, the options of switch nodes, or its `floor`, a
-- screen's, or nil.
local function switch_option_error(node, name)
  if node.keep ~= nil and type(node.keep) ~= "boolean" then
    return name .. ": keep must be true or false, not a " .. type(node.keep)
  end
  if node.keep and node.kind ~= "switch" then
    return name .. ": keep is for switch nodes (it keeps their children's stacks)"
  end
  if node.back ~= nil and not is_one_of(node.back, BACK_BEHAVIOURS) then
    local shown = type(node.back) == "string" and '"' .. node.back .. '"' or tostring(node.back)
    return name .. ": back must be one of " .. table.concat(BACK_BEHAVIOURS, ", ") .. ", not " .. shown
  end
  if node.back ~= nil and node.kind ~= "switch" then
    return name .. ": back is only for a switch node (where back takes it among its children)"
  end
  if node.floor ~= nil and type(node.floor) ~= "boolean" then
    return name .. ": floor must be true or false, not a " .. type(node.floor)
  end
  if node.floor and node.kind == "switch" then
    return name .. ": floor is for screens (back never leaves one)"
  end
  return nil
end

-- Checks `node` and hands it to `emit`, its children first (so the host builds each node from the
-- ones before it, and no description of the tree is built in Lua or converted to Swift: a 100,000-node
-- app is held once, as the script's own tables and the graph). Returns true, or nil and a message.
-- `emit(id, kind, active, child_count, handlers, routes, pushes, keep, back, launch, key, floor)`:
-- `handlers` is a bit set over HANDLERS (bit 0 the first), `routes` the pattern, the list of them or
-- nil, `pushes` nil or a list of ids, `key` false, a field's name or a list of them. `depth` is the
-- node's level (1 for the root and anywhere nodes): a node past the engine's limit is refused here,
-- before anything that deep reaches the host.
local function describe(node, where, found, emit, depth)
  depth = depth or 1
  if type(node) ~= "table" then
    return nil, where .. " must be a node table, not a " .. type(node)
  end
  if type(node.id) ~= "string" or node.id == "" then
    return nil, where .. " needs an id (a non-empty string)"
  end
  local name = "node '" .. node.id .. "'"
  if depth > MAX_DEPTH then
    return nil, name .. " is declared deeper than " .. MAX_DEPTH .. " levels"
  end
  if node.kind ~= nil and node.kind ~= "screen" and node.kind ~= "switch" then
    return nil, name .. ": kind must be \"screen\" or \"switch\", not " .. tostring(node.kind)
  end
  if node.active ~= nil and type(node.active) ~= "string" then
    return nil, name .. ": active must be a child's id"
  end
  local bad_option = switch_option_error(node, name)
  if bad_option then return nil, bad_option end
  local handlers = 0
  for index, field in ipairs(HANDLERS) do
    local value = node[field]
    if value ~= nil then
      if type(value) ~= "function" then
        return nil, name .. ": " .. field .. " must be a function, not a " .. type(value)
      end
      handlers = handlers | (1 << (index - 1))
    end
  end
  if node.children ~= nil and type(node.children) ~= "table" then
    return nil, name .. ": children must be a list of node tables"
  end
  local routes, bad_route = route_list(node.route, name)
  if routes == nil then return nil, bad_route end
  local pushes, bad_push = push_list(node.push, name)
  if pushes == nil then return nil, bad_push end
  if node.launch ~= nil and not is_one_of(node.launch, LAUNCH_MODES) then
    local modes = table.concat(LAUNCH_MODES, ", ")
    return nil, name .. ": launch must be one of " .. modes .. ", not " .. tostring(node.launch)
  end
  local key, bad_key = key_list(node.key, name)
  if key == nil then return nil, bad_key end
  local count = 0
  if node.children ~= nil then
    for index, child in ipairs(node.children) do
      local described, message = describe(child, name .. ", child " .. index, found, emit, depth + 1)
      if not described then return nil, message end
      count = index
    end
  end
  if found[node.id] == nil then found[node.id] = node end
  emit(node.id, node.kind or "screen", node.active, count, handlers, routes, pushes, node.keep == true,
       node.back, node.launch, key, node.floor == true)
  return true
end

-- A root's list of URL origins (`schemes`, `hosts`): nil when absent, else a list of strings
-- that `valid` accepts; or false and what is wrong.
local function origin_list(spec, field, valid, example)
  local list = spec[field]
  if list == nil then return nil end
  if type(list) ~= "table" then
    return false, field .. " must be a list such as { " .. example .. " }, not a " .. type(list)
  end
  for index, item in ipairs(list) do
    if type(item) ~= "string" or not valid(item) then
      return false, field .. "[" .. index .. "] must be like " .. example .. ", not " .. tostring(item)
    end
  end
  return list
end

local function is_scheme(text) return text:match("^%a[%w+.-]*$") ~= nil and #text <= 64 end
local function is_host(text) return text:match("^[%w.-]+$") ~= nil and #text <= 253 end

-- A numeric root option within its bounds: nil when absent, else the number; or false and what is
-- wrong. The bounds' third item says them (RootOption.bounds); a time limit (`seconds`) may be any
-- number above its lower bound, the others are whole numbers within theirs.
local function whole_number(spec, field)
  local value, bounds = spec[field], BOUNDS[field]
  if value == nil then return nil end
  local fits
  if bounds.seconds then
    fits = type(value) == "number" and value > bounds[1] and value <= bounds[2]
  else
    fits = math.type(value) == "integer" and value >= bounds[1] and value <= bounds[2]
  end
  if not fits then
    return false, string.format("%s must be %s, not %s", field, bounds[3], tostring(value))
  end
  return value
end

-- A list of strings (`removed`), or false and what is wrong.
local function id_list(list, field)
  if type(list) ~= "table" then return false, field .. " must be a list of node ids" end
  for index, id in ipairs(list) do
    if type(id) ~= "string" then return false, field .. "[" .. index .. "] must be a node id, not " .. tostring(id) end
  end
  return list
end

-- One version's migration, checked: { renamed = { old = "new" }, removed = { "x" },
-- moved = { y = { "new", "parent" } }, context = function(id, ctx) ... end }.
local function migration(step, version)
  local where = "migrations[" .. tostring(version) .. "]"
  if type(step) ~= "table" then return false, where .. " must be a table" end
  for key in pairs(step) do
    if key ~= "renamed" and key ~= "removed" and key ~= "moved" and key ~= "context" and key ~= "incompatible" then
      return false, where .. " has no field " .. tostring(key) .. " (renamed, removed, moved, context, incompatible)"
    end
  end
  for old, new in pairs(step.renamed or {}) do
    if type(old) ~= "string" or type(new) ~= "string" then
      return false, where .. ".renamed must map old ids to new ids, as { old = \"new\" }"
    end
  end
  if step.removed ~= nil then
    local ok, bad = id_list(step.removed, where .. ".removed")
    if not ok then return false, bad end
  end
  for id, lineage in pairs(step.moved or {}) do
    if type(id) ~= "string" then return false, where .. ".moved's keys must be node ids" end
    local ok, bad = id_list(lineage, where .. ".moved." .. id)
    if not ok then return false, bad end
  end
  if step.incompatible ~= nil and type(step.incompatible) ~= "boolean" then
    return false, where .. ".incompatible must be true or false"
  end
  if step.context ~= nil and type(step.context) ~= "function" then
    return false, where .. ".context must be a function(id, context)"
  end
  return true
end

-- The migrations table, checked: nil when absent, the table, or false and what is wrong.
local function migration_table(migrations)
  if migrations == nil then return nil end
  if type(migrations) ~= "table" then return false, "migrations must be a table keyed by version" end
  local bounds = BOUNDS.version
  for version, step in pairs(migrations) do
    if math.type(version) ~= "integer" or version < bounds[1] or version > bounds[2] then
      return false, string.format("migrations' keys must be versions from %d to %d, not %s",
        bounds[1], bounds[2], tostring(version))
    end
    local ok, bad = migration(step, version)
    if not ok then return false, bad end
  end
  return migrations
end

-- A list of plain tables (contexts, payloads): keys strings, values strings, numbers or booleans.
local function flat_tables(list, where)
  if type(list) ~= "table" then return false, where .. " must be a list of tables such as { { id = 1 } }" end
  for index, item in ipairs(list) do
    if type(item) ~= "table" then return false, where .. "[" .. index .. "] must be a table, not a " .. type(item) end
    for key, value in pairs(item) do
      local kind = type(value)
      if type(key) ~= "string" or (kind ~= "string" and kind ~= "number" and kind ~= "boolean") then
        return false, where .. "[" .. index .. "] must map names to strings, numbers or booleans"
      end
    end
  end
  return true
end

-- A table of lists keyed by name (`contexts`, `payloads`, `state`), each list checked by `check`.
local function keyed_lists(value, where, check)
  if value == nil then return true end
  if type(value) ~= "table" then return false, where .. " must be a table keyed by name" end
  for key, list in pairs(value) do
    if type(key) ~= "string" then return false, where .. "'s keys must be names, not " .. tostring(key) end
    local ok, bad = check(list, where .. "." .. key)
    if not ok then return false, bad end
  end
  return true
end

-- The values one key of the app's state takes (`explore.state.logged_in = { true, false }`).
local function state_values(list, where)
  if type(list) ~= "table" or #list == 0 then
    return false, where .. " must be a list of the values to try, such as { true, false }"
  end
  for index, value in ipairs(list) do
    local kind = type(value)
    if kind ~= "string" and kind ~= "number" and kind ~= "boolean" then
      return false, where .. "[" .. index .. "] must be a string, a number or a boolean, not a " .. kind
    end
  end
  return true
end

-- The root's `explore` (docs/explore.md), checked: nil when absent, the table, or false and why.
local EXPLORE_FIELDS = { state = true, contexts = true, payloads = true, urls = true, back = true, unreachable = true }
local function explore_table(explore)
  if explore == nil then return nil end
  if type(explore) ~= "table" then
    return false, "explore must be a table such as { state = { logged_in = { true, false } } }"
  end
  for key in pairs(explore) do
    if not EXPLORE_FIELDS[key] then
      return false, "explore has no field " .. tostring(key) .. " (state, contexts, payloads, urls, back, unreachable)"
    end
  end
  local checks = { { "state", state_values }, { "contexts", flat_tables }, { "payloads", flat_tables } }
  for _, pair in ipairs(checks) do
    local ok, bad = keyed_lists(explore[pair[1]], "explore." .. pair[1], pair[2])
    if not ok then return false, bad end
  end
  for _, field in ipairs { "back", "unreachable" } do
    if explore[field] ~= nil then
      local ok, bad = id_list(explore[field], "explore." .. field)
      if not ok then return false, bad end
    end
  end
  if explore.urls ~= nil then
    if type(explore.urls) ~= "table" then return false, "explore.urls must be a list of URLs" end
    for index, url in ipairs(explore.urls) do
      if type(url) ~= "string" then
        return false, "explore.urls[" .. index .. "] must be a URL, not " .. tostring(url)
      end
    end
  end
  return explore
end

-- The root table's options, checked: a table for the host, or nil and what is wrong.
local function app_options(spec)
  local schemes, bad_scheme = origin_list(spec, "schemes", is_scheme, '"shop" (a scheme, without "://")')
  if schemes == false then return nil, bad_scheme end
  local hosts, bad_host = origin_list(spec, "hosts", is_host, '"shop.example" (a host name)')
  if hosts == false then return nil, bad_host end
  if spec.rollback ~= nil and type(spec.rollback) ~= "boolean" then
    return nil, "rollback must be true or false, not a " .. type(spec.rollback)
  end
  local limit, bad_limit = whole_number(spec, "max_redirects")
  if limit == false then return nil, bad_limit end
  local history, bad_history = whole_number(spec, "history")
  if history == false then return nil, bad_history end
  if spec.queue ~= nil and spec.queue ~= "fifo" and spec.queue ~= "latest_wins" then
    return nil, 'queue must be "fifo" or "latest_wins", not ' .. tostring(spec.queue)
  end
  if spec.animate ~= nil and spec.animate ~= "last" and spec.animate ~= "each" then
    return nil, 'animate must be "last" or "each", not ' .. tostring(spec.animate)
  end
  local max_depth, bad_depth = whole_number(spec, "max_depth")
  if max_depth == false then return nil, bad_depth end
  local max_copies, bad_copies = whole_number(spec, "max_copies")
  if max_copies == false then return nil, bad_copies end
  local version, bad_version = whole_number(spec, "version")
  if version == false then return nil, bad_version end
  local migrations, bad_migrations = migration_table(spec.migrations)
  if migrations == false then return nil, bad_migrations end
  local handler_timeout, bad_timeout = whole_number(spec, "handler_timeout")
  if handler_timeout == false then return nil, bad_timeout end
  local explore, bad_explore = explore_table(spec.explore)
  if explore == false then return nil, bad_explore end
  return { handler_timeout = handler_timeout, case_insensitive_routes = spec.case_insensitive_routes == true,
           significant_trailing_slash = spec.significant_trailing_slash == true,
           rollback = spec.rollback, max_depth = max_depth, max_copies = max_copies, version = version,
           migrations = migrations, max_redirects = limit, animate = spec.animate, history = history,
           queue = spec.queue, schemes = schemes, hosts = hosts, explore = explore }
end

return describe, app_options
