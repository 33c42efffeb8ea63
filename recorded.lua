-- Recorded by the Portolan REPL on /tmp/portolan-cli-N2oneq/app.lua.
-- Run with: portolan test --app /tmp/portolan-cli-N2oneq/app.lua recorded.lua
-- (the app is outside this file's directory, where portolan.load may not reach: give --app)

scenario("recorded session", function()
  -- The Lua typed before the recording started, which may change what routes do.
  login()
  greeting = 'hi'
  expect(portolan.route "settings", { "enter settings" })
  expect(portolan.active_path(), { "root", "tabs", "home", "settings" })
  print(greeting)
end)
