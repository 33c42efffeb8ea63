-- Flows and steps (RxFlow): screens emit steps, flows turn them into routes.
-- Run with: portolan test --app Examples/movies/app.lua Examples/movies/scenarios/flows.lua

scenario("a step handled by a flow routes where the flow says, and travels with the route", function()
  login()
  local seen = {}
  portolan.intercept(function(request)
    if request.step then seen.request = request.step.name end
  end)
  portolan.on("did_route", function(_, _, step) seen.event = step end)
  expect(portolan.step("movie_picked", { id = 42 }), { "switch root -> dashboard", "enter wishlist_movie {id=42}" })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
  expect(seen, { request = "movie_picked", event = { name = "movie_picked", payload = { id = 42 } } })
  expect(shown_movie, { tab = "wishlist", id = 42 })
end)

scenario("a flow adapts a step: before login a picked movie asks for the login screen", function()
  expect(portolan.step("movie_picked", { id = 7 }), { "enter onboarding_login" })
  expect(portolan.active_path(), { "root", "onboarding", "onboarding_login" })
end)

scenario("a step no flow handles is unreachable, and names the step", function()
  local executed, err = portolan.step("song_picked", { id = 1 })
  expect(executed, nil)
  expect(err.kind, "unreachable")
  expect(err.message, "no flow handles step 'song_picked'")
end)

scenario("a step that leads nowhere is told of, as any refused request: a failed event and a history record", function()
  local failed = {}
  portolan.on("failed", function(err) failed[#failed + 1] = err.kind .. ": " .. err.message end)
  portolan.step("song_picked", { id = 1 })
  expect(failed, { "unreachable: no flow handles step 'song_picked'" })
  local history = portolan.history()
  expect(history[#history].ok, false)
  expect(history[#history].error.message, "no flow handles step 'song_picked'")
end)

scenario("a step asked for from a handler is queued where the flows send it", function()
  login()
  local pending
  portolan.on("did_route", function(_, _, step)
    if step and step.name == "settings_wanted" then pending = portolan.step("movie_picked", { id = 5 }) end
  end)
  portolan.step("settings_wanted")
  expect(pending.pending, true)
  expect(pending.destination[#pending.destination], { id = "wishlist_movie", context = { id = 5 } })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
end)

scenario("a flow that refuses a step denies it", function()
  expect(portolan.step("settings_wanted"), { "enter settings" })
  portolan.route { "root", "onboarding" }
  -- A kiosk build adds a flow that refuses songs. No flow before it handles the step, so its adapt
  -- decides, and the step goes no further.
  portolan.flow { name = "kiosk", steps = {}, adapt = function(step) if step == "song_picked" then return false end end }
  local executed, err = portolan.step("song_picked")
  expect(executed, nil)
  expect(err.kind, "denied")
  expect(err.message, "flow 'kiosk' refused step 'song_picked'")
end)
