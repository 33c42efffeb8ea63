-- The redirect rules an app writes as Lua functions, what a destination string means, and the
-- module's URL functions (portolan.redirect_rule, portolan.match). The host runs this chunk once
-- per state and hands the function it returns to the module, which calls it with its bridge (a
-- table, so it must be the module's own, not a copy) and its maker of error objects, and keeps the
-- rules it returns: it adds to them and applies them before every URL route. A misuse is raised
-- with `bridge.error_at_caller`, at the script's line.

-- The module's functions made of the rules: destination (rules.target answering nil and an error),
-- redirect_rule and match.
local function add_module_functions(rules, bridge, route_error)
  -- rules.target for the functions that answer nil and an error rather than raise: a rule that
  -- returns a table, raises or loops makes that one call fail as `invalid`, not the script.
  function rules.destination(dest)
    -- The origin of the URL as received, before any rule can rewrite it into a path.
    if type(dest) == "string" and bridge.is_url(dest) then
      local refusal = bridge.origin_refusal(dest)
      if refusal then return nil, route_error(refusal) end
    end
    local ok, result = pcall(rules.target, dest)
    if ok then return result end
    return nil, route_error { kind = "invalid", message = tostring(result) }
  end

  --- Adds a URL redirect rule, applied before matching: portolan.redirect_rule("/old/:id", "/books/:id"),
  -- or portolan.redirect_rule(function(url) ... return new_url end).
  function rules.redirect_rule(from, to)
    if type(from) == "function" and to == nil then
      rules.functions[#rules.functions + 1] = from
      bridge.url_function_added()
      return
    end
    if type(from) ~= "string" or type(to) ~= "string" then
      bridge.error_at_caller("portolan.redirect_rule expects a pattern and a URL template, or a function of the URL")
    end
    local ok, why = bridge.redirect_rule(from, to)
    if not ok then bridge.error_at_caller(why) end
  end

  --- Where a URL leads: { node =, path = { ids }, params = {}, query = {}, query_items = {},
  -- fragment = }, or nil and an error.
  function rules.match(url)
    if type(url) ~= "string" then bridge.error_at_caller("portolan.match expects a URL string") end
    local rewritten, invalid = rules.destination(url)
    if invalid then return nil, invalid end
    local ok, result = bridge.match(rewritten)
    if ok then return result end
    return nil, route_error(result)
  end
end

return function(bridge, route_error)
  local rules = { functions = {} }   -- applied in order before matching

  -- The host's one rule for "is this a URL" (ParsedURL.isURL).
  local function is_url(dest)
    return type(dest) == "string" and bridge.is_url(dest)
  end

  -- The URL after the function rules: the first that returns a string rewrites it, and the rules
  -- run again on the result (a chain longer than 8 is a loop).
  function rules.rewritten(url)
    for _ = 1, 9 do
      local rewrite
      for _, rule in ipairs(rules.functions) do
        rewrite = rule(url)
        if rewrite ~= nil then break end
      end
      if rewrite == nil then return url end
      if type(rewrite) ~= "string" then
        error("a redirect rule returned a " .. type(rewrite) .. "; return a URL string or nothing", 0)
      end
      url = rewrite
    end
    error("redirect rules loop: more than 8 rewrites, last to '" .. bridge.excerpt(url) .. "'", 0)
  end

  -- A destination as the host takes it: a URL rewritten by the function rules, anything else as is.
  function rules.target(dest)
    if is_url(dest) then return rules.rewritten(dest) end
    return dest
  end

  add_module_functions(rules, bridge, route_error)
  return rules
end
