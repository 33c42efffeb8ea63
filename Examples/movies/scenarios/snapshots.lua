-- Snapshots (docs/snapshots.md): a state saved by version 1 of the rules, restored under version 2,
-- which renamed the favorites tab to wishlist and removed the trailer screen.

-- Saved by version 1: the favorites tab, on movie 42, with its trailer open.
local version_1 = [[{"format":"portolan-snapshot/1","history":[],"pending":null,]]
  .. [["rules":{"hash":"sha256:version-1","version":1},"state":null,"switch_history":{},"tree":[]]
  .. [[{"active":1,"children":2,"id":"root"},{"id":"onboarding"},{"active":0,"children":2,"id":"dashboard"},]]
  .. [[{"active":0,"children":1,"id":"favorites"},{"active":0,"children":1,"context":{"id":42},"id":"favorites_movie"},]]
  .. [[{"id":"trailer"},{"id":"watched"}]}]]

scenario("a version-1 snapshot is migrated: the renamed tab is restored, the removed screen reported", function()
  login()
  expect_restore(version_1, {
    outcome = "migrated",
    changes = {
      "renamed 'favorites' → 'wishlist' (version 2)",
      "renamed 'favorites_movie' → 'wishlist_movie' (version 2)",
      "removed 'trailer' (version 2)",
    },
  })
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
end)

scenario("a snapshot round-trips byte for byte", function()
  login()
  assert(portolan.route("/wishlist/movies/42"))
  assert(portolan.switch_to("dashboard", "watched"))
  local saved = portolan.snapshot()
  assert(portolan.route { "root", "onboarding" })
  expect_restore(saved, { outcome = "restored" })
  expect(portolan.snapshot(), saved)
end)

scenario("a snapshot brings the session's state back with the screens", function()
  login()
  assert(portolan.route("/wishlist/movies/42"))
  local saved = portolan.snapshot()
  logout()
  expect(portolan.state.logged_in, false)
  expect_restore(saved, { outcome = "restored" })
  expect(portolan.state.logged_in, true)
  expect(portolan.active_path(), { "root", "dashboard", "wishlist", "wishlist_movie" })
end)

scenario("a guard that now turns the restored path away wins", function()
  login()
  assert(portolan.route("/wishlist/movies/42"))
  -- The same screens, saved by a session that had expired: the guards, asked again, see it.
  local expired = portolan.snapshot():gsub('"logged_in":true', '"logged_in":false')
  local outcome = expect_restore(expired, { outcome = "restored" })
  expect(outcome.redirected, "root > onboarding")
  expect(portolan.active_path(), { "root", "onboarding" })
end)

scenario("bytes that are not a snapshot are refused, and the tree stays", function()
  local before = portolan.active_path()
  expect_restore("{\"format\":\"portolan-snapshot/9\"}", {
    outcome = "refused", reason = "a newer format: 'portolan-snapshot/9'; this engine reads portolan-snapshot/1 and portolan-snapshot/2",
  })
  expect(portolan.active_path(), before)
end)
