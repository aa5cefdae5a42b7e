// Lua's macros as functions Swift can call, and nothing else: droprules' own C is the
// CLuaHost target, which the compiler checks.
#ifndef CLUA_SHIM_H
#define CLUA_SHIM_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

static inline void clua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void clua_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *clua_tostring(lua_State *L, int index, size_t *length) {
  return lua_tolstring(L, index, length);
}
static inline int clua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void clua_collectgarbage(lua_State *L) { lua_gc(L, LUA_GCCOLLECT, 0); }

#endif
