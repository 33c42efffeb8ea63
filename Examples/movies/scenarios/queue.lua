-- Requests that arrive during a route: a deep link while the login screen animates in.
-- Run with: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/queue.lua

scenario("fifo: a deep link during a route runs after it", function()
  login()
  -- The link arrives while the route to the dashboard runs (an observer stands in for the OS).
  portolan.on("instruction", function(text)
    if text == "switch root -> dashboard" then portolan.route "/watched/movies/9" end
  end)
  expect(portolan.route { "root", "dashboard" }, { "switch root -> dashboard" })
  expect(portolan.active_path(), { "root", "dashboard", "watched", "watched_movie" })
  expect(route_log, { "root/dashboard", "root/dashboard/watched/watched_movie" })
end)

scenario("a request for the route that runs is dropped as a duplicate", function()
  login()
  local dropped
  portolan.on("instruction", function(text)
    if text == "switch root -> dashboard" then
      local _, err = portolan.route { "root", "dashboard" }
      dropped = err and err.kind
    end
  end)
  portolan.route { "root", "dashboard" }
  expect(dropped, "duplicated")
end)

scenario("latest_wins: a deep link during a route cancels it and rolls it back", function()
  -- An app of its own, declared here: the same screens, with the newest request winning.
  local shown = {}
  local function screen(id, children)
    return { id = id, children = children,
             enter = function() shown[#shown + 1] = "enter " .. id end,
             leave = function() shown[#shown + 1] = "leave " .. id end }
  end
  portolan.app {
    id = "root", queue = "latest_wins",
    children = { screen("home", { screen("movie", { screen("cast") }) }), screen("settings") },
  }
  portolan.on("instruction", function(text)
    if text == "enter movie" then portolan.route { "root", "settings" } end
  end)
  local executed, err = portolan.route { "root", "home", "movie", "cast" }
  expect(executed, nil)
  expect(err.kind, "cancelled")
  expect(err.rolled_back, { "leave movie", "leave home" })
  -- The newer request ran, from where the cancelled one started.
  expect(portolan.active_path(), { "root", "settings" })
  expect(shown, { "enter home", "enter movie", "leave movie", "leave home", "enter settings" })
end)
