// Forgetting what trusted Lua read of the embedder's data, once its version moved, and
// emptying an ended object: host upkeep that allocates nothing and raises nothing.
#include "internal.h"

/// Removes every field of the table on top of the stack. Setting an existing field to nil
/// during a traversal is allowed, and allocates nothing.
static void clua_empty_top(lua_State *L) {
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lua_rawset(L, -4);
  }
}

/// Removes keys `[2..n]` of the entry on top from its table `[1]`. Setting a key to nil
/// never allocates: a key the table lacks is not inserted.
static void clua_forget_entry_fields(lua_State *L) {
  if (lua_rawgeti(L, -1, 1) == LUA_TTABLE) {
    lua_Integer count = (lua_Integer)lua_rawlen(L, -2);
    for (lua_Integer key = 2; key <= count; key++) {
      lua_rawgeti(L, -2, key);
      lua_pushnil(L);
      lua_rawset(L, -3);
    }
  }
  lua_pop(L, 1);
}

/// Empties one list of readings from its end, `forget` applied to each table entry.
static void clua_forget_list(lua_State *L, int list, void (*forget)(lua_State *L)) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, list);
  for (lua_Integer index = (lua_Integer)lua_rawlen(L, -1); index > 0; index--) {
    if (lua_rawgeti(L, -1, index) == LUA_TTABLE) forget(L);
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawseti(L, -2, index);
  }
  lua_pop(L, 1);
}

void clua_forget_readings(lua_State *L, clua_Budget *budget) {
  clua_forget_list(L, budget->host.readingsList, clua_empty_top);
  clua_forget_list(L, budget->host.fieldReadingsList, clua_forget_entry_fields);
  budget->host.readingsVersion = *budget->host.watchedVersion;
}

int clua_forget_stale_readings(lua_State *L, clua_Budget *budget) {
  if (budget->host.watchedVersion == NULL || *budget->host.watchedVersion == budget->host.readingsVersion) return 1;
  if (!lua_checkstack(L, 5)) return 0;
  clua_forget_readings(L, budget);
  return 1;
}

void clua_empty_registry_table(lua_State *L, int table) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, table);
  clua_empty_top(L);
  lua_pop(L, 1);
}

void clua_set_call_readings(lua_State *L, int table) { clua_budget(L)->host.callReadings = table; }

void clua_call_readings_filled(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  budget->host.callReadingsFilled = budget->host.callReadings != 0;
}

int clua_forget_call_readings(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  if (!budget->host.callReadingsFilled) return 1;
  if (!lua_checkstack(L, 4)) return 0;
  clua_empty_registry_table(L, budget->host.callReadings);
  budget->host.callReadingsFilled = 0;
  return 1;
}

void clua_empty_table(lua_State *L, int table, int metatable) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, table);
  clua_empty_top(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, metatable);
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
}
