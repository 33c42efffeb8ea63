-- A small app that `portolan check` finds nothing wrong with (exit status 0).

local portolan = require "portolan"

logged_in = false

portolan.app {
  id = "root", kind = "switch", active = "onboarding",
  children = {
    { id = "onboarding", route = "/",
      children = { { id = "login", route = "/login" } } },
    { id = "tabs", kind = "switch", active = "wishlist",
      guard = function(node, request)
        if not logged_in then return portolan.redirect { "root", "onboarding", "login" } end
      end,
      children = {
        { id = "wishlist", route = "/wishlist",
          children = {
            { id = "movie", route = "/wishlist/movies/:id<int>",
              enter = function(node, entry, info) print("show movie " .. entry.context.id) end },
          } },
        { id = "watched", route = "/watched" },
      } },
  },
  anywhere = {
    { id = "settings", route = "/settings",
      can_leave = function(node, entry) return true end,
      children = { { id = "about" } } },
  },
}

portolan.redirect_rule("/films/:id", "/wishlist/movies/:id")

portolan.intercept(function(request)
  if request:goes_to("settings") and request.url == "/settings?debug" then
    return portolan.redirect "/settings"
  end
end)
