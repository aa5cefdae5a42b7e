// A state's setup and the host's own writes into it: preparing and sealing the
// libraries, interning symbols, keeping values in the registry, writing a field. Each
// runs itself in a protected call, so running out of memory is a status, never a jump
// over the host's Swift frames.
#include <lualib.h>

#include "internal.h"

/// The finalizer of a host function's box holder: the Swift box lives as long as the Lua
/// closure that holds it, and is released when the collector frees the closure (or when
/// the state closes).
static int clua_release_swift_function(lua_State *L) {
  void **slot = (void **)lua_touserdata(L, 1);
  clua_Budget *budget = clua_budget(L);
  if (slot != NULL && *slot != NULL && budget->host.swiftRelease != NULL) budget->host.swiftRelease(*slot);
  if (slot != NULL) *slot = NULL;
  return 0;
}

static int clua_swift_function_worker(lua_State *L) {
  void *function = lua_touserdata(L, 1);
  void **slot = (void **)lua_newuserdatauv(L, sizeof(void *), 0);
  // Empty until nothing here can fail: until then the caller owns the box, and releases
  // it if this call raised.
  *slot = NULL;
  if (luaL_newmetatable(L, "droprules host function")) {
    lua_pushcfunction(L, clua_release_swift_function);
    lua_setfield(L, -2, "__gc");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
  }
  lua_setmetatable(L, -2);
  lua_pushcclosure(L, clua_trampoline, 1);
  int ref = luaL_ref(L, LUA_REGISTRYINDEX);
  *slot = function;
  lua_pushinteger(L, ref);
  return 1;
}

int clua_swift_function_ref(lua_State *L, void *function) {
  lua_pushlightuserdata(L, function);
  return clua_protected_ref(L, clua_swift_function_worker, 1);
}

/// Puts the resident slots in place, on a new state before anything else runs; the keys
/// are interned already, so nothing here allocates.
static void clua_keep_resident_slots(lua_State *L) {
  lua_settop(L, 0);
  lua_pushcfunction(L, clua_traceback);
  lua_pushliteral(L, "x");
  lua_pushliteral(L, "y");
}

/// Pushes `text`, keeps it alive in the registry, and returns its bytes.
static const char *clua_keep_string(lua_State *L, const char *text) {
  lua_pushstring(L, text);
  const char *kept = lua_tostring(L, -1);
  luaL_ref(L, LUA_REGISTRYINDEX);
  return kept;
}

/// What clua_intern_symbols interns, for its protected call.
typedef struct clua_Symbols {
  const char *const *words;
  int count;
  const char *symbolKey, *numberKey, *flagKey;
} clua_Symbols;

static int clua_intern_worker(lua_State *L) {
  const clua_Symbols *symbols = (const clua_Symbols *)lua_touserdata(L, 1);
  clua_Budget *budget = clua_budget(L);
  budget->host.symbolKey = clua_keep_string(L, symbols->symbolKey);
  budget->host.numberKey = clua_keep_string(L, symbols->numberKey);
  budget->host.flagKey = clua_keep_string(L, symbols->flagKey);
  for (int code = 0; code < symbols->count; code++) {
    lua_pushstring(L, symbols->words[code]);
    budget->host.symbols[code] = lua_topointer(L, -1);
    budget->host.symbolTexts[code] = lua_tolstring(L, -1, &budget->host.symbolLengths[code]);
    luaL_ref(L, LUA_REGISTRYINDEX);  // kept alive, so the interned string never changes
  }
  budget->host.symbolCount = symbols->count;
  return 0;
}

int clua_intern_symbols(lua_State *L, const char *const *words, int count, const char *symbolKey,
                        const char *numberKey, const char *flagKey) {
  if (count < 0 || count > CLUA_MAX_SYMBOLS) return 0;
  clua_Symbols symbols = {
      .words = words, .count = count, .symbolKey = symbolKey, .numberKey = numberKey, .flagKey = flagKey};
  clua_Budget *budget = clua_budget(L);
  budget->host.symbolCount = 0;
  budget->host.symbolKey = NULL;
  budget->host.numberKey = NULL;
  budget->host.flagKey = NULL;
  lua_pushcfunction(L, clua_intern_worker);
  lua_pushlightuserdata(L, &symbols);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    lua_pop(L, 1);
    budget->host.symbolCount = 0;
    budget->host.symbolKey = NULL;
    budget->host.numberKey = NULL;
    budget->host.flagKey = NULL;
    return -1;
  }
  return 1;
}

/// Sets `field` of the table on top to `twin`, closed over Lua's own `library.field`.
static void clua_set_twin(lua_State *L, const char *library, const char *field, lua_CFunction twin) {
  lua_getglobal(L, library);
  lua_getfield(L, -1, field);
  lua_pushcclosure(L, twin, 1);
  lua_setfield(L, -3, field);
  lua_pop(L, 1);
}

static int clua_prepare_worker(lua_State *L) {
  clua_PreparedState *out = (clua_PreparedState *)lua_touserdata(L, 1);
  luaL_openlibs(L);
  lua_newtable(L);
  out->readings = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_newtable(L);
  out->fieldReadings = luaL_ref(L, LUA_REGISTRYINDEX);
  static const luaL_Reg functions[] = {
      {"find", clua_bounded_find},
      {"match", clua_bounded_match},
      {"gmatch", clua_bounded_gmatch},
      {"gsub", clua_bounded_gsub},
      {"charge", clua_charge_function},
      {"resume", clua_bounded_resume},
      {"wrap", clua_bounded_wrap},
      {"close", clua_bounded_close},
      {"load", clua_bounded_load},
      {"move", clua_bounded_move},
      {"insert", clua_bounded_insert},
      {"remove", clua_bounded_remove},
      {"concat", clua_bounded_concat},
      {"unpack", clua_bounded_unpack},
      {"makeNext", clua_make_sealed_next},
      {"raisedInHook", clua_raised_in_hook_function},
      {"byRange", clua_wrap_by_range},
      {"byLength", clua_wrap_by_length},
      // A fresh math library (its random state its own), for each environment.
      {"newMath", luaopen_math},
      {NULL, NULL},
  };
  // The slot the memory cap's error is kept in, made now so that keeping it allocates nothing.
  lua_pushboolean(L, 0);
  clua_budget(L)->memory.memoryErrorSlot = luaL_ref(L, LUA_REGISTRYINDEX);
  luaL_newlib(L, functions);
  // Twins that run Lua's own function (their upvalue) in their own call.
  clua_set_twin(L, "string", "rep", clua_bounded_rep);
  clua_set_twin(L, "table", "sort", clua_bounded_sort);
  out->boundedLibrary = luaL_ref(L, LUA_REGISTRYINDEX);
  // The resident slots' keys, kept alive here so that pushing them later finds them
  // interned and allocates nothing.
  lua_pushliteral(L, "x");
  luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pushliteral(L, "y");
  luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

int clua_prepare_state(lua_State *L, clua_PreparedState *out) {
  lua_pushcfunction(L, clua_prepare_worker);
  lua_pushlightuserdata(L, out);
  int status = lua_pcall(L, 1, 0, 0);
  if (status != LUA_OK) return status;
  clua_keep_resident_slots(L);
  return LUA_OK;
}

static int clua_seal_worker(lua_State *L) {
  lua_getglobal(L, "string");
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  lua_pop(L, 1);
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1)) {
    lua_pushliteral(L, "the string metatable is locked");
    lua_setfield(L, -2, "__metatable");
  }
  return 0;
}

int clua_seal_libraries(lua_State *L) {
  lua_pushcfunction(L, clua_seal_worker);
  int status = lua_pcall(L, 0, 0, 0);
  if (status != LUA_OK) lua_pop(L, 1);
  return status;
}

static int clua_field_ref_worker(lua_State *L) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, (lua_Integer)lua_tointeger(L, 1));
  lua_pushstring(L, (const char *)lua_touserdata(L, 2));
  lua_rawget(L, -2);
  lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
  return 1;
}

int clua_field_ref(lua_State *L, int table, const char *key) {
  lua_pushinteger(L, table);
  lua_pushlightuserdata(L, (void *)key);
  return clua_protected_ref(L, clua_field_ref_worker, 2);
}

void clua_collect_garbage(lua_State *L) { lua_gc(L, LUA_GCCOLLECT, 0); }
