-- The redirect rules an app writes as Lua functions, and what a destination string means. The
-- host runs this chunk once per state and hands the function it returns to the module, which calls
-- it with its bridge (a table, so it must be the module's own, not a copy) and keeps the rules it
-- returns: it adds to them (portolan.redirect_rule) and applies them before every URL route.
return function(bridge)
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
    error("redirect rules loop: more than 8 rewrites, last to '" .. url .. "'", 0)
  end

  -- A destination as the host takes it: a URL rewritten by the function rules, anything else as is.
  function rules.target(dest)
    if is_url(dest) then return rules.rewritten(dest) end
    return dest
  end

  return rules
end
