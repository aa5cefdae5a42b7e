// Calls into Lua and out of it: the protected call with a traceback, the trampoline
// that runs Swift functions (a Lua error is raised here, in C, never across a Swift
// frame), and the allocation-free call of a pointer step.
#include <lualib.h>
#include <string.h>

#include "internal.h"

/// Message handler for protected calls: appends a traceback to string messages, and
/// notes whether the error is the memory cap's own (the same value, not the same text).
/// The message stays a Lua string throughout: as a C string, a NUL in it would cut it short.
static int clua_traceback(lua_State *L) {
  clua_Budget *budget = clua_budget(L);
  budget->endedByMemoryLimit = budget->memoryErrorValue != NULL && lua_topointer(L, 1) == budget->memoryErrorValue;
  if (lua_tostring(L, 1) == NULL) {
    if (!(luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)) {
      lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    lua_replace(L, 1);
  }
  lua_settop(L, 1);
  lua_pushliteral(L, "\n");
  luaL_traceback(L, L, NULL, 1);
  lua_concat(L, 3);
  return 1;
}

int clua_pcall_traceback(lua_State *L, int nargs, int nresults) {
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
  if (budget->swiftDispatcher == NULL) clua_raise(L, "the host is not ready");
  // Swift plans its results (or its error message) and returns; they are pushed here,
  // in C, under the cap like any allocation of the call.
  clua_plan(L);
  int results = budget->swiftDispatcher(L, function);
  int isMemoryError = budget->plan.isMemoryError;
  clua_push_plan(L, &budget->plan);
  if (results < 0) {
    if (isMemoryError) clua_mark_memory_error(L);
    return lua_error(L);
  }
  return results;
}

static int clua_swift_function_worker(lua_State *L) {
  lua_pushcclosure(L, clua_trampoline, 1);
  lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
  return 1;
}

int clua_swift_function_ref(lua_State *L, void *function) {
  lua_pushcfunction(L, clua_swift_function_worker);
  lua_pushlightuserdata(L, function);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    lua_pop(L, 1);
    return LUA_NOREF;
  }
  int ref = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return ref;
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
  const char *symbolKey, *numberKey;
} clua_Symbols;

static int clua_intern_worker(lua_State *L) {
  const clua_Symbols *symbols = (const clua_Symbols *)lua_touserdata(L, 1);
  clua_Budget *budget = clua_budget(L);
  budget->symbolKey = clua_keep_string(L, symbols->symbolKey);
  budget->numberKey = clua_keep_string(L, symbols->numberKey);
  for (int code = 0; code < symbols->count; code++) {
    lua_pushstring(L, symbols->words[code]);
    budget->symbols[code] = lua_topointer(L, -1);
    budget->symbolTexts[code] = lua_tolstring(L, -1, &budget->symbolLengths[code]);
    luaL_ref(L, LUA_REGISTRYINDEX);  // kept alive, so the interned string never changes
  }
  budget->symbolCount = symbols->count;
  return 0;
}

int clua_intern_symbols(lua_State *L, const char *const *words, int count, const char *symbolKey,
                        const char *numberKey) {
  if (count < 0 || count > CLUA_MAX_SYMBOLS) return 0;
  clua_Symbols symbols = {.words = words, .count = count, .symbolKey = symbolKey, .numberKey = numberKey};
  clua_Budget *budget = clua_budget(L);
  budget->symbolCount = 0;
  budget->symbolKey = NULL;
  budget->numberKey = NULL;
  lua_pushcfunction(L, clua_intern_worker);
  lua_pushlightuserdata(L, &symbols);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    lua_pop(L, 1);
    budget->symbolCount = 0;
    budget->symbolKey = NULL;
    budget->numberKey = NULL;
    return 0;
  }
  return 1;
}

/// The code of the symbol at `index`, or -1. Short strings are interned, so the common
/// case is a pointer comparison; a long one is compared by its bytes.
static inline __attribute__((always_inline)) int clua_symbol_code(lua_State *L, const clua_Budget *budget, int index) {
  if (lua_type(L, index) != LUA_TSTRING) return -1;
  const void *pointer = lua_topointer(L, index);
  for (int code = 0; code < budget->symbolCount; code++) {
    if (budget->symbols[code] == pointer) return code;
  }
  size_t length = 0;
  const char *text = lua_tolstring(L, index, &length);
  for (int code = 0; code < budget->symbolCount; code++) {
    const char *symbol = budget->symbolTexts[code];
    if (symbol != NULL && budget->symbolLengths[code] == length && memcmp(symbol, text, length) == 0) return code;
  }
  return -1;
}

static inline __attribute__((always_inline)) void clua_classify(lua_State *L, const clua_Budget *budget, int index, clua_CallResult *out) {
  out->numberKind = CLUA_NUMBER_NONE;
  out->symbol = -1;
  switch (lua_type(L, index)) {
  case LUA_TNIL:
  case LUA_TNONE:
    out->kind = CLUA_RESULT_NONE;
    return;
  case LUA_TBOOLEAN:
    out->kind = lua_toboolean(L, index) ? CLUA_RESULT_TRUE : CLUA_RESULT_FALSE;
    return;
  case LUA_TSTRING:
    out->symbol = clua_symbol_code(L, budget, index);
    out->kind = out->symbol >= 0 ? CLUA_RESULT_SYMBOL : CLUA_RESULT_OTHER;
    return;
  case LUA_TTABLE: {
    int table = lua_absindex(L, index);
    out->kind = CLUA_RESULT_OTHER;
    // Room for a key and a value: the call's own result slot is already in use.
    if (!lua_checkstack(L, 2) || budget->symbolKey == NULL || budget->numberKey == NULL) return;
    lua_pushstring(L, budget->symbolKey);
    lua_rawget(L, table);
    out->symbol = clua_symbol_code(L, budget, -1);
    lua_pop(L, 1);
    if (out->symbol < 0) return;
    out->kind = CLUA_RESULT_SYMBOL;
    lua_pushstring(L, budget->numberKey);
    lua_rawget(L, table);
    if (lua_isinteger(L, -1)) {
      out->numberKind = CLUA_NUMBER_INTEGER;
      out->integerNumber = lua_tointegerx(L, -1, NULL);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
      out->numberKind = CLUA_NUMBER_FLOAT;
      out->floatNumber = lua_tonumberx(L, -1, NULL);
    } else if (!lua_isnil(L, -1)) {
      out->numberKind = CLUA_NUMBER_NOT_A_NUMBER;
    }
    lua_pop(L, 1);
    return;
  }
  default:
    out->kind = CLUA_RESULT_OTHER;
  }
}

/// Writes a point in place into a table: `x` and `y` (the table's metatable reads `[1]`
/// and `[2]` from them). The table holds these keys already, so no write allocates.
static inline __attribute__((always_inline)) void clua_write_point(lua_State *L, int table, double x, double y) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, table);
  lua_pushvalue(L, CLUA_SLOT_KEY_X);
  lua_pushnumber(L, x);
  lua_rawset(L, -3);
  lua_pushvalue(L, CLUA_SLOT_KEY_Y);
  lua_pushnumber(L, y);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void clua_call_with_points(lua_State *L, clua_Budget *budget, const clua_PointCall *call, long long instructionLimit,
                           clua_CallResult *out) {
  // Six slots: the three values pushed below, the point writes' two, the classification's
  // two, less the result's. An outermost call starts from the resident slots, and the
  // state's base frame keeps LUA_MINSTACK (20) free above them; a nested one asks.
  if (budget->callDepth > 0 && !lua_checkstack(L, 6)) {
    lua_pushliteral(L, "stack overflow before a call");
    out->status = LUA_ERRERR;
    out->kind = CLUA_RESULT_OTHER;
    out->leftOnStack = 1;
    out->outermost = budget->callDepth == 0;
    return;
  }
  if (budget->watchedVersion != NULL && *budget->watchedVersion != budget->readingsVersion) {
    clua_forget_readings(L, budget);
  }
  clua_write_point(L, call->point, call->x, call->y);
  clua_write_point(L, call->globalPoint, call->globalX, call->globalY);
  int outermost = budget->callDepth == 0;
  budget->callDepth++;
  lua_rawgeti(L, LUA_REGISTRYINDEX, call->function);
  lua_rawgeti(L, LUA_REGISTRYINDEX, call->first);
  lua_rawgeti(L, LUA_REGISTRYINDEX, call->second);
  if (outermost) clua_arm_budget(L, budget, instructionLimit);
  out->status = lua_pcall(L, 2, 1, CLUA_SLOT_TRACEBACK);
  if (outermost) {
    budget->countingInstructions = 0;
    budget->enforceMemory = 0;
    budget->runningThread = NULL;
  }
  budget->callDepth--;
  out->outermost = outermost;
  if (out->status == LUA_OK) clua_classify(L, budget, -1, out);
  if (out->status == LUA_OK && out->kind != CLUA_RESULT_OTHER) {
    lua_pop(L, 1);
    out->leftOnStack = 0;
  } else {
    out->leftOnStack = 1;
  }
}

/// One write of clua_rawset_integer or clua_rawset_string, for a protected call.
typedef struct clua_FieldWrite {
  int table;
  const char *key;
  const char *_Nullable text;
  long long integer;
  int isText, present;
} clua_FieldWrite;

static int clua_field_write_worker(lua_State *L) {
  const clua_FieldWrite *write = (const clua_FieldWrite *)lua_touserdata(L, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, write->table);
  lua_pushstring(L, write->key);
  if (!write->present) {
    lua_pushnil(L);
  } else if (write->isText) {
    lua_pushstring(L, write->text);
  } else {
    lua_pushinteger(L, (lua_Integer)write->integer);
  }
  lua_rawset(L, -3);
  return 0;
}

/// Interning the key or the text may allocate: in a protected call, so that a failure
/// leaves the field as it was rather than jump over the host's frames.
static int clua_write_field(lua_State *L, const clua_FieldWrite *write) {
  lua_pushcfunction(L, clua_field_write_worker);
  lua_pushlightuserdata(L, (void *)write);
  int status = lua_pcall(L, 1, 0, 0);
  if (status != LUA_OK) lua_pop(L, 1);
  return status == LUA_OK;
}

int clua_rawset_integer(lua_State *L, int table, const char *key, long long value, int present) {
  clua_FieldWrite write = {.table = table, .key = key, .integer = value, .present = present};
  return clua_write_field(L, &write);
}

int clua_rawset_string(lua_State *L, int table, const char *key, const char *value) {
  clua_FieldWrite write = {.table = table, .key = key, .text = value, .isText = 1, .present = value != NULL};
  return clua_write_field(L, &write);
}

static int clua_prepare_worker(lua_State *L) {
  clua_PreparedState *out = (clua_PreparedState *)lua_touserdata(L, 1);
  luaL_openlibs(L);
  lua_newtable(L);
  out->readings = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_newtable(L);
  out->fieldReadings = luaL_ref(L, LUA_REGISTRYINDEX);
  static const luaL_Reg functions[] = {
      {"find", clua_bounded_find},     {"match", clua_bounded_match},   {"gmatch", clua_bounded_gmatch},
      {"gsub", clua_bounded_gsub},     {"charge", clua_charge_function}, {"resume", clua_bounded_resume},
      {NULL, NULL},
  };
  luaL_newlib(L, functions);
  lua_pushcfunction(L, clua_bounded_move);
  lua_setfield(L, -2, "move");
  lua_pushcfunction(L, clua_bounded_wrap);
  lua_setfield(L, -2, "wrap");
  lua_pushcfunction(L, clua_make_sealed_next);
  lua_setfield(L, -2, "makeNext");
  lua_getglobal(L, "table");
  lua_getfield(L, -1, "sort");
  lua_pushcclosure(L, clua_bounded_sort, 1);
  lua_setfield(L, -3, "sort");
  lua_pop(L, 1);
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
  lua_pushcfunction(L, clua_field_ref_worker);
  lua_pushinteger(L, table);
  lua_pushlightuserdata(L, (void *)key);
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
    lua_pop(L, 1);
    return LUA_NOREF;
  }
  int ref = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return ref;
}

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
  clua_forget_list(L, budget->readingsList, clua_empty_top);
  clua_forget_list(L, budget->fieldReadingsList, clua_forget_entry_fields);
  budget->readingsVersion = *budget->watchedVersion;
}

void clua_forget_stale_readings(lua_State *L, clua_Budget *budget) {
  if (budget->watchedVersion == NULL || *budget->watchedVersion == budget->readingsVersion) return;
  // Never expected to fail; the next way into Lua would try again.
  if (!lua_checkstack(L, 5)) return;
  clua_forget_readings(L, budget);
}

void clua_empty_table(lua_State *L, int table, int metatable) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, table);
  clua_empty_top(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, metatable);
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
}
