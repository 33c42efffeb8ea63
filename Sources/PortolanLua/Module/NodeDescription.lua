-- The checker of the node tables an app declares: each node's fields handed straight to the host's
-- builder of the graph (ids, kinds, children, handler names, routes), or nil and a message naming
-- what is wrong; and the root table's options, picked out for the host, which reads them. The host
-- runs this chunk once per state with its list of handler fields (HandlerName), the engine's depth
-- limit (NavigationGraph.maximumDepth), the names of the root's options (RootOption), of the launch
-- modes (LaunchMode) and of the switch nodes' back behaviours (TabBackBehavior), and hands the two
-- functions to the module.
local HANDLERS, MAX_DEPTH, ROOT_OPTIONS, LAUNCH_MODES, BACK_BEHAVIOURS = ...

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

-- The root table's options, as the script wrote them: only the fields RootOption names, for the
-- host to read and check (AppOptions.swift), so that the nodes are never handed over as a whole.
local function root_options(spec)
  local options = {}
  for _, name in ipairs(ROOT_OPTIONS) do options[name] = spec[name] end
  return options
end

return describe, root_options
