-- The module's URL functions: portolan.redirect_rule and portolan.match. The host runs this chunk
-- once per state and hands the function it returns to the module, which calls it with its bridge
-- (a table, so it must be the module's own, not a copy) and its maker of error objects. A misuse is
-- raised with `bridge.error_at_caller`, at the script's line.
--
-- Nothing here reads or rewrites a URL: the host keeps every redirect rule, of both kinds, and runs
-- them in its one loop (URLRedirects.swift) when it resolves a URL the module hands it as is.

return function(bridge, route_error)
  local rules = {}

  --- Adds a URL redirect rule, applied before matching: portolan.redirect_rule("/old/:id", "/books/:id"),
  -- or portolan.redirect_rule(function(url) ... return new_url end).
  function rules.redirect_rule(from, to)
    local is_function = type(from) == "function" and to == nil
    if not is_function and (type(from) ~= "string" or type(to) ~= "string") then
      bridge.error_at_caller("portolan.redirect_rule expects a pattern and a URL template, or a function of the URL")
    end
    local ok, why = bridge.redirect_rule(from, to)
    if not ok then bridge.error_at_caller(why) end
  end

  --- Where a URL leads: { node =, path = { ids }, params = {}, query = {}, query_items = {},
  -- fragment = }, or nil and an error.
  function rules.match(url)
    if type(url) ~= "string" then bridge.error_at_caller("portolan.match expects a URL string") end
    local ok, result = bridge.match(url)
    if ok then return result end
    return nil, route_error(result)
  end

  return rules
end
