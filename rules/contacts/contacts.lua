-- Contacts: the Transferable seed's contact list. A list takes its own contact type
-- (a JSON payload), vCards from other apps and plain text as a proxy (the text becomes
-- the contact's name), reading each item's representations in its own fidelity order
-- as Transferable does. Items it cannot read are refused before the drop, not after.
-- The host computes the insertion gap from the list's item extent; a contact already
-- in the list is moved to the gap instead of being added twice.
-- Contacts also go out, the seed's headline: dragged into another app (Contacts,
-- Notes, Messages) they travel as whatever representation that app takes, a vCard
-- for Contacts. A copy out leaves the list as it is; a move out removes the contact
-- here once the drop is done (in dragEnded, as AppKit and UIKit sources do), except
-- from a shared directory (`data.shared`), which only lets contacts be copied out.
droprules.declareType("com.example.contact", { conformsTo = { "public.contact", "public.data" } })

-- How to read a contact out of each representation the list accepts.
local readers = {
  {
    type = "com.example.contact",
    read = function(payload)
      local contact = droprules.decodeJSON(payload)
      if type(contact) ~= "table" or type(contact.givenName) ~= "string" then return nil end
      local name = contact.givenName .. (contact.familyName and " " .. contact.familyName or "")
      return { name = name, phone = contact.phone }
    end,
  },
  {
    type = "public.vcard",
    read = function(payload)
      local name = payload:match("\nFN:([^\r\n]+)")
      if name == nil then return nil end
      return { name = name, phone = payload:match("\nTEL[^:\r\n]*:([^\r\n]+)") }
    end,
  },
  {
    type = "public.plain-text",
    read = function(payload)
      local name = payload:match("^%s*(.-)%s*$")
      if name == "" or #name > 100 then return nil end
      return { name = name }
    end,
  },
}

-- The contact an item carries, from its best representation the list can read.
local function contactOf(item)
  for _, typeID in ipairs(item.types) do
    for _, reader in ipairs(readers) do
      if droprules.conforms(typeID, reader.type) then
        local contact = reader.read(item:data(typeID))
        if contact then return contact end
      end
    end
  end
  return nil
end

local function sameContact(a, b)
  if a.phone and b.phone then return a.phone == b.phone end
  return a.name:lower() == b.name:lower()
end

-- The entry of `list` that already stands for `contact`, if any.
local function existingEntry(list, contact)
  for _, entry in ipairs(list.items) do
    local known = contactOf(entry)
    if known and sameContact(known, contact) then return entry end
  end
  return nil
end

local acceptedTypes = {}
for index, reader in ipairs(readers) do acceptedTypes[index] = reader.type end

return {
  ["contacts.list"] = {
    accepts = acceptedTypes,

    validateDrop = function(info, _list)
      for _, item in ipairs(info:itemProviders(acceptedTypes)) do
        if contactOf(item) == nil then return false end
      end
      return true
    end,

    dropUpdated = function(info, _list)
      if info.source == nil then return "copy" end
      return info.modifiers.option and "copy" or "move"
    end,

    dragOperations = function(info, list)
      if info.outside and list.data.shared then return { "copy" } end
      return { "move", "copy" }
    end,

    dragEnded = function(info, list)
      if info.outcome ~= "performed" or not info.outside or info.operation ~= "move" then return end
      -- Only what the other app took: it may accept some of the dragged items only.
      for _, item in ipairs(info.taken) do
        if item.container == list then list:remove(item) end
      end
    end,

    performDrop = function(info, list)
      local entries = {}
      for position, item in ipairs(info:itemProviders(acceptedTypes)) do
        local entry = item
        if item.container ~= list then
          entry = existingEntry(list, contactOf(item))
          if entry == nil and item.container and info.operation == "copy" then entry = item:copy() end
          entry = entry or item
        end
        entries[position] = entry
      end
      list:insert(entries, info.index)
      return true
    end,
  },
}
