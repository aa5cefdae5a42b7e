// The only C that droprules owns: wrappers for Lua's macros, which Swift cannot
// import, plus the few pieces that must be C because they raise Lua errors
// (lua_error longjmps, and that must never cross a Swift frame).
#ifndef CLUA_SHIM_H
#define CLUA_SHIM_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

/// Limits and counters of one lua_State, reached from the allocator and the hook
/// through the allocator's user-data pointer.
typedef struct clua_Budget {
  size_t memoryInUse;
  size_t memoryLimit;
  /// The limit holds only while rule code runs; the host's own pushes never fail.
  int enforceMemory;
  int memoryRefused;

  long long instructionLimit;
  long long instructionsUsed;
  int instructionHookStep;
  int countingInstructions;
  int instructionsExhausted;

  /// Called for every executed line while coverage is on; must not raise.
  void (*lineObserver)(void *context, const char *source, int line);
  void *lineObserverContext;

  /// Runs a Swift function exposed to Lua: returns the number of results, or -1
  /// when it left an error message on the stack for the trampoline to raise.
  int (*swiftDispatcher)(lua_State *L, void *function);
} clua_Budget;

static void *clua_allocate(void *ud, void *ptr, size_t osize, size_t nsize) {
  clua_Budget *budget = (clua_Budget *)ud;
  size_t oldSize = ptr ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    budget->memoryInUse -= oldSize;
    return NULL;
  }
  // Growing past the cap is refused; a shrink is never refused, as Lua requires.
  if (nsize > oldSize && budget->enforceMemory &&
      budget->memoryInUse - oldSize + nsize > budget->memoryLimit) {
    budget->memoryRefused = 1;
    return NULL;
  }
  void *block = realloc(ptr, nsize);
  if (block == NULL && nsize <= oldSize) {
    return ptr;
  }
  if (block != NULL) {
    budget->memoryInUse = budget->memoryInUse - oldSize + nsize;
  }
  return block;
}

static inline lua_State *clua_newstate(size_t memoryLimit) {
  clua_Budget *budget = (clua_Budget *)calloc(1, sizeof(clua_Budget));
  if (budget == NULL) return NULL;
  budget->memoryLimit = memoryLimit;
  lua_State *L = lua_newstate(clua_allocate, budget);
  if (L == NULL) free(budget);
  return L;
}

static inline clua_Budget *_Nonnull clua_budget(lua_State *_Nonnull L) {
  void *ud = NULL;
  lua_getallocf(L, &ud);
  return (clua_Budget *)ud;
}

static inline void clua_close(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  lua_close(L);
  free(budget);
}

static void clua_hook(lua_State *L, lua_Debug *ar) {
  clua_Budget *budget = clua_budget(L);
  if (ar->event == LUA_HOOKLINE) {
    if (budget->lineObserver && lua_getinfo(L, "S", ar)) {
      budget->lineObserver(budget->lineObserverContext, ar->source, ar->currentline);
    }
    return;
  }
  if (ar->event != LUA_HOOKCOUNT || !budget->countingInstructions) return;
  budget->instructionsUsed += budget->instructionHookStep;
  if (budget->instructionsUsed > budget->instructionLimit) {
    budget->instructionsExhausted = 1;
    // From now on every instruction fails, so a rule's own pcall cannot swallow it.
    lua_sethook(L, clua_hook, lua_gethookmask(L) | LUA_MASKCOUNT, 1);
    luaL_error(L, "instruction budget of %I instructions exceeded",
               (lua_Integer)budget->instructionLimit);
  }
}

/// Arms the count hook (and the line hook when coverage observes) for one call.
static inline void clua_arm(lua_State *L, long long instructionLimit, int observeLines) {
  clua_Budget *budget = clua_budget(L);
  budget->instructionLimit = instructionLimit;
  budget->instructionsUsed = 0;
  budget->instructionsExhausted = 0;
  budget->countingInstructions = 1;
  budget->instructionHookStep = instructionLimit < 1000 ? (int)(instructionLimit > 0 ? instructionLimit : 1) : 1000;
  budget->memoryRefused = 0;
  budget->enforceMemory = 1;
  int mask = LUA_MASKCOUNT | (observeLines && budget->lineObserver ? LUA_MASKLINE : 0);
  lua_sethook(L, clua_hook, mask, budget->instructionHookStep);
}

static inline void clua_disarm(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  budget->countingInstructions = 0;
  budget->enforceMemory = 0;
  lua_sethook(L, NULL, 0, 0);
}

/// Message handler for protected calls: appends a traceback to string messages.
static int clua_traceback(lua_State *L) {
  const char *message = lua_tostring(L, 1);
  if (message == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
      message = lua_tostring(L, -1);
    } else {
      message = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
  }
  luaL_traceback(L, L, message, 1);
  return 1;
}

static inline int clua_pcall_traceback(lua_State *L, int nargs, int nresults) {
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, clua_traceback);
  lua_insert(L, base);
  int status = lua_pcall(L, nargs, nresults, base);
  lua_remove(L, base);
  return status;
}

static int clua_trampoline(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  void *function = lua_touserdata(L, lua_upvalueindex(1));
  int enforcing = budget->enforceMemory;
  budget->enforceMemory = 0;
  int results = budget->swiftDispatcher(L, function);
  budget->enforceMemory = enforcing;
  if (results < 0) return lua_error(L);
  return results;
}

static inline void clua_pushswiftfunction(lua_State *L, void *function) {
  lua_pushlightuserdata(L, function);
  lua_pushcclosure(L, clua_trampoline, 1);
}

static inline int clua_loadtext(lua_State *L, const char *text, size_t length, const char *chunkName) {
  return luaL_loadbufferx(L, text, length, chunkName, "t");
}

static inline void clua_collectgarbage(lua_State *L) { lua_gc(L, LUA_GCCOLLECT, 0); }
static inline void clua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void clua_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *clua_tostring(lua_State *L, int index, size_t *length) {
  return lua_tolstring(L, index, length);
}
static inline int clua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void clua_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }

#endif
