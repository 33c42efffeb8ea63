-- Data-driven scenarios: one scenario per row, each reported on its own line.
-- Run: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/links.lua

local portolan = require "portolan"

-- Every kind of link the app accepts, and the screen it opens for a logged-in user.
scenario.each({
  { "/wishlist/movies/42", { "root", "dashboard", "wishlist", "wishlist_movie" } },
  { "/watched/movies/7/cast/3", { "root", "dashboard", "watched", "watched_movie", "watched_cast" } },
  { "myapp://movie/42", { "root", "dashboard", "wishlist", "wishlist_movie" } },
  { "https://movies.example.com/watched", { "root", "dashboard", "watched" } },
  { "/films/42", { "root", "dashboard", "wishlist", "wishlist_movie" } },
  { "/movie?id=42", { "root", "dashboard", "wishlist", "wishlist_movie" } },
}, "%s opens %s", function(link, path)
  login()
  local _, err = portolan.route(link)
  expect(err, nil)
  expect(portolan.active_path(), path)
end)

-- Links that lead nowhere fail as `unreachable`, and the user stays where they were.
scenario.each({ "/wishlist/movies", "/nowhere", "ftp://movies.example.com/wishlist" }, "%s is unreachable", function(link)
  login()
  local _, err = portolan.route(link)
  expect(err and err.kind, "unreachable")
  expect(portolan.active_path(), { "root", "onboarding" })
end)
