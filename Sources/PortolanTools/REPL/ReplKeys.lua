-- Completion's key lister: the string keys that start with `prefix` of the table that the dotted
-- `path` names (_G for ""), read with rawget and next, and through the __index tables of
-- metatables read raw, so that no metamethod of the user's runs. Bounded, for huge tables.
-- `shown` sees through the host's read-only views (string, portolan…) without a metamethod.
local path, prefix, shown = ...
local t = _G
for name in string.gmatch(path, "[^.:]+") do
  if type(t) ~= "table" then t = nil break end
  t = rawget(shown(t), name)
end
local keys, seen, depth = {}, {}, 0
while type(t) == "table" and depth < 8 do
  t = shown(t)
  local count = 0
  for k in next, t do
    count = count + 1
    if count > 5000 then break end
    if type(k) == "string" and not seen[k] and k:sub(1, #prefix) == prefix and k:match("^[%a_][%w_]*$") then
      seen[k] = true
      keys[#keys + 1] = k
    end
  end
  local mt = getmetatable(t)
  t = type(mt) == "table" and rawget(mt, "__index") or nil
  depth = depth + 1
end
return keys
