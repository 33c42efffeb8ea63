-- A deliberately broken app: every lint of `portolan check` fires at least once here.
--
--   portolan check Examples/lint/bad_app.lua        (exit status 1)
--
-- Each line that should be reported says which lint reports it.

local portolan = require "portolan"

-- A helper that builds tab nodes: the nodes it builds share the line of its table.
local function tab(id, pattern)
  return { id = id, route = pattern }
end

portolan.app {
  id = "root", kind = "switch", active = "home",
  children = {
    { id = "home", route = "/",
      children = {
        { id = "movie", route = "/movies/:id",
          enter = "MovieDetail",                               -- handler-not-function
          on_leave = function(node, entry) end },              -- unknown-handler (did you mean leave?)
        { id = "movie", route = "/films/:id" },                -- duplicate-id
        { id = "trailer", route = "/movies/:slug" },           -- ambiguous-route (with /movies/:id)
        { id = "poster", route = "/posters/*" },               -- shadowed-route (by /posters/:name)
        { id = "poster_detail", route = "/posters/:name" },
        { id = "legacy", route = "/old/:id" },                 -- shadowed-route (by the redirect rule)
        { id = "gallery", route = "/gallery/:id<float>" },     -- invalid-route (no such type)
        { id = "cast", active = "actor" },                     -- active-not-child (not a switch)
      } },
    { id = "tabs", kind = "switch", active = "favourites",     -- active-not-child
      kepp = true,                                             -- unknown-field (did you mean keep?)
      children = { tab("wishlist", "/wishlist"), tab("watched", "/watched"),
        { id = "profile", enter = function() end } } },        -- handler-never-runs (a switch's child)
    { id = "admin",                                            -- unreachable-node
      guard = function(node, request) return portolan.deny("not yet") end,
      children = { { id = "audit" } } },
    { id = "help", kind = "tabs" },                            -- invalid-node (no such kind)
    { id = "account", route = "/account",
      guard = function()
        if not is_admin then return portolan.redirect "/account" end  -- redirect-into-guard (its own node)
      end },
    { id = "history", kind = "switch", back = "histroy",       -- invalid-option (back = "history")
      children = { { id = "day" } } },
  },
  anywhere = {
    { id = "settings", route = "/settings",
      children = {
        { id = "about", route = "/settings/about" },           -- dead-route (inside an anywhere node)
      } },
  },
  version = 2, migrations = { [2] = { renamed = { gone = "ghost" } } },  -- invalid-migration
  schemes = { "shop", "https" },                               -- web-scheme (https from every host)
  explore = { back = { "phantom" } },                           -- unknown-node-in-explore
}

portolan.redirect_rule("/old/:id", "/movies/:id")
portolan.redirect_rule("/promo/:id", "/promotions/:id")        -- unknown-node-in-redirect (no route)
portolan.redirect_rule("/old/7", "/movies/7")                  -- shadowed-redirect-rule (by /old/:id)

portolan.intercept(function(request)
  if request:goes_to("moive") then                             -- unknown-node-in-guard
    return portolan.redirect { "root", "home", "login" }       -- unknown-node-in-redirect
  end
  if request:goes_to("audit") and not is_admin then
    return portolan.redirect "home"                            -- invalid-redirect (not an anywhere node)
  end
end)

local visits = 0
portolan.intercept(function(request)
  visits = visits + 1                                          -- decision-side-effect (plans run it too)
  if not request.dry_run then visits = visits + 1 end          -- (a route only: not reported)
  if request:goes_to("cast") then
    portolan.route { "root", "home" }                          -- decision-side-effect (a route from a decision)
  end
end)
