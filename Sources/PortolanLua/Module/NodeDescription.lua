-- The checker of the node tables an app declares: it returns the plain description the host
-- validates (ids, kinds, children, handler names, routes), or nil and a message naming the node.
-- The host runs this chunk once per state with its list of handler fields (HandlerName) and hands
-- the function it returns to the module.
local HANDLERS = ...

-- Returns the plain description the host validates, or nil and a message.
local function describe(node, where, found)
  if type(node) ~= "table" then
    return nil, where .. " must be a node table, not a " .. type(node)
  end
  if type(node.id) ~= "string" or node.id == "" then
    return nil, where .. " needs an id (a non-empty string)"
  end
  local name = "node '" .. node.id .. "'"
  if node.kind ~= nil and node.kind ~= "screen" and node.kind ~= "switch" then
    return nil, name .. ": kind must be \"screen\" or \"switch\", not " .. tostring(node.kind)
  end
  if node.active ~= nil and type(node.active) ~= "string" then
    return nil, name .. ": active must be a child's id"
  end
  local handlers = {}
  for _, field in ipairs(HANDLERS) do
    local value = node[field]
    if value ~= nil then
      if type(value) ~= "function" then
        return nil, name .. ": " .. field .. " must be a function, not a " .. type(value)
      end
      handlers[#handlers + 1] = field
    end
  end
  if node.children ~= nil and type(node.children) ~= "table" then
    return nil, name .. ": children must be a list of node tables"
  end
  local routes = node.route
  if type(routes) == "string" then routes = { routes } end
  if routes ~= nil then
    if type(routes) ~= "table" then
      return nil, name .. ": route must be a URL pattern or a list of them, not a " .. type(routes)
    end
    for _, pattern in ipairs(routes) do
      if type(pattern) ~= "string" then
        return nil, name .. ": route must be a URL pattern or a list of them"
      end
    end
  end
  local children = {}
  for index, child in ipairs(node.children or {}) do
    local description, message = describe(child, name .. ", child " .. index, found)
    if not description then return nil, message end
    children[#children + 1] = description
  end
  if found[node.id] == nil then found[node.id] = node end
  return { id = node.id, kind = node.kind or "screen", active = node.active,
           children = children, handlers = handlers, routes = routes or {} }
end

return describe
