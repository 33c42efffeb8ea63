-- Snapshots from Lua (docs/snapshots.md): `portolan.snapshot()` and `portolan.restore(doc)`. The
-- host runs this chunk once per state and hands the function it returns to the module, which
-- calls it with what the two need (the bridge, the caller's errors, the coroutine's role and the
-- mark of a yield the host serves) and installs the two functions it returns.
return function(bridge, error_at_caller, role, MARK)

  --- A snapshot of the app's state as a string of canonical JSON (portolan-snapshot/2). A value
  -- that cannot be saved is an error naming its path in the state.
  local function snapshot()
    local ok, result = bridge.snapshot()
    if not ok then error_at_caller("portolan.snapshot: " .. result) end
    return result
  end

  --- Restores a snapshot (the string portolan.snapshot returned) under the rules in service: never
  -- an error, whatever the string; { outcome = "restored" | "migrated" | "refused", changes = {…},
  -- notes = {…}, reason =, redirected = }. Only from a script's main flow, not from a handler.
  local function restore(doc)
    if role() ~= "script" then
      error_at_caller("portolan.restore can only be called from a script, not from a handler")
    end
    return coroutine.yield(MARK, "restore", doc)
  end

  return snapshot, restore
end
