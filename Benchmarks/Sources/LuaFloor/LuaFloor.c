#include "LuaFloor.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

struct LuaFloor {
  lua_State *L;
  int function, info, target, location, globalLocation;
  /// The proposals' interned strings, for lua_floor_minimal_call.
  const void *proposals[4];
};

/// The minimal call's resident stack slots.
enum { SLOT_KEY_X = 1, SLOT_KEY_Y, SLOT_LOCATION, SLOT_FUNCTION, SLOT_INFO, SLOT_TARGET };

static int newTable(lua_State *L) {
  lua_newtable(L);
  lua_pushvalue(L, -1);
  return luaL_ref(L, LUA_REGISTRYINDEX);
}

LuaFloor *lua_floor_open(const char *source, const char *targetType) {
  lua_State *L = luaL_newstate();
  if (L == NULL) return NULL;
  luaL_openlibs(L);
  if (luaL_loadstring(L, source) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK || !lua_istable(L, -1)) {
    lua_close(L);
    return NULL;
  }
  lua_getfield(L, -1, targetType);
  if (!lua_istable(L, -1)) { lua_close(L); return NULL; }
  lua_getfield(L, -1, "dropUpdated");
  if (!lua_isfunction(L, -1)) { lua_close(L); return NULL; }
  LuaFloor *floor = calloc(1, sizeof(LuaFloor));
  floor->L = L;
  floor->function = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_settop(L, 0);

  floor->info = newTable(L);
  floor->location = newTable(L);
  lua_setfield(L, -2, "location");
  floor->globalLocation = newTable(L);
  lua_setfield(L, -2, "globalLocation");
  lua_newtable(L);
  lua_setfield(L, -2, "modifiers");
  lua_newtable(L);
  lua_setfield(L, -2, "items");
  lua_newtable(L);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "move");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "copy");
  lua_setfield(L, -2, "allowedOperations");
  lua_settop(L, 0);

  floor->target = newTable(L);
  lua_pushstring(L, "t0");
  lua_setfield(L, -2, "id");
  lua_pushstring(L, targetType);
  lua_setfield(L, -2, "type");
  lua_newtable(L);
  lua_setfield(L, -2, "data");
  lua_newtable(L);
  lua_setfield(L, -2, "items");
  lua_settop(L, 0);
  return floor;
}

static void setPoint(lua_State *L, int table, double x, double y) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, table);
  lua_pushnumber(L, x);
  lua_setfield(L, -2, "x");
  lua_pushnumber(L, y);
  lua_setfield(L, -2, "y");
  lua_pushnumber(L, x);
  lua_rawseti(L, -2, 1);
  lua_pushnumber(L, y);
  lua_rawseti(L, -2, 2);
  lua_pop(L, 1);
}

int lua_floor_call(LuaFloor *floor, double x, double y) {
  lua_State *L = floor->L;
  setPoint(L, floor->location, x, y);
  setPoint(L, floor->globalLocation, x, y);
  lua_rawgeti(L, LUA_REGISTRYINDEX, floor->function);
  lua_rawgeti(L, LUA_REGISTRYINDEX, floor->info);
  lua_rawgeti(L, LUA_REGISTRYINDEX, floor->target);
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
    lua_pop(L, 1);
    return -1;
  }
  int code = -1;
  if (lua_type(L, -1) == LUA_TSTRING) {
    const char *text = lua_tostring(L, -1);
    if (strcmp(text, "move") == 0) code = 0;
    else if (strcmp(text, "copy") == 0) code = 1;
    else if (strcmp(text, "forbidden") == 0) code = 2;
    else if (strcmp(text, "cancel") == 0) code = 3;
  }
  lua_pop(L, 1);
  return code;
}

void lua_floor_prepare_minimal(LuaFloor *floor) {
  lua_State *L = floor->L;
  lua_settop(L, 0);
  lua_pushliteral(L, "x");
  lua_pushliteral(L, "y");
  lua_rawgeti(L, LUA_REGISTRYINDEX, floor->location);
  lua_rawgeti(L, LUA_REGISTRYINDEX, floor->function);
  lua_rawgeti(L, LUA_REGISTRYINDEX, floor->info);
  lua_rawgeti(L, LUA_REGISTRYINDEX, floor->target);
  static const char *const names[4] = {"move", "copy", "forbidden", "cancel"};
  for (int code = 0; code < 4; code++) {
    // Kept alive by the registry; short strings are interned, so the rule's "move" is this one.
    lua_pushstring(L, names[code]);
    floor->proposals[code] = lua_topointer(L, -1);
    luaL_ref(L, LUA_REGISTRYINDEX);
  }
}

int lua_floor_minimal_call(LuaFloor *floor, double x, double y) {
  lua_State *L = floor->L;
  lua_pushvalue(L, SLOT_KEY_X);
  lua_pushnumber(L, x);
  lua_rawset(L, SLOT_LOCATION);
  lua_pushvalue(L, SLOT_KEY_Y);
  lua_pushnumber(L, y);
  lua_rawset(L, SLOT_LOCATION);
  lua_pushvalue(L, SLOT_FUNCTION);
  lua_pushvalue(L, SLOT_INFO);
  lua_pushvalue(L, SLOT_TARGET);
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
    lua_pop(L, 1);
    return -1;
  }
  const void *answer = lua_topointer(L, -1);
  int code = -1;
  for (int candidate = 0; candidate < 4; candidate++) {
    if (answer == floor->proposals[candidate]) code = candidate;
  }
  lua_pop(L, 1);
  return code;
}

static void countHook(lua_State *L, lua_Debug *ar) {
  (void)L;
  (void)ar;
}

void lua_floor_count_instructions(LuaFloor *floor) { lua_sethook(floor->L, countHook, LUA_MASKCOUNT, 1000); }

void lua_floor_close(LuaFloor *floor) {
  lua_close(floor->L);
  free(floor);
}
