// Loading and dumping chunks: text from files and rules, bytecode only of our own making.
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/// Bytes the parser is given at a time: the clock is read between pieces.
enum { CLUA_COMPILE_PIECE = 4096 };

/// A chunk for lua_load: text (a rule file, a module, a rule's `load`), or what a
/// rule's reader function returns, handed to the parser 4 KB at a time with the clock
/// read between pieces: compiling runs no instruction the count hook could see.
typedef struct {
  /// The stack index of the reader function; 0 for text.
  int function;
  /// The stack index that keeps the reader's current piece alive.
  int slot;
  const char *text;
  size_t left;
  long long deadline;
  clua_Budget *budget;
} clua_ChunkReader;

static const char *clua_read_chunk(lua_State *L, void *context, size_t *size) {
  clua_ChunkReader *reader = (clua_ChunkReader *)context;
  if (reader->deadline != 0 && clua_now() > reader->deadline) {
    reader->budget->limits.compileTimedOut = 1;
    if (reader->budget->limits.countingInstructions) {
      // Within a call, its deadline has passed: every later instruction fails.
      reader->budget->limits.timeExceeded = 1;
      lua_sethook(L, clua_hook, lua_gethookmask(L) | LUA_MASKCOUNT, 1);
    }
    clua_raise(L, "compiling took longer than the time limit of %I ms",
               (lua_Integer)(reader->budget->limits.timeLimit / 1000000));
  }
  if (reader->left == 0 && reader->function != 0) {
    // As Lua's load: call the reader until it gives nil or an empty string.
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, reader->function);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      *size = 0;
      return NULL;
    }
    if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
    lua_replace(L, reader->slot);
    reader->text = lua_tolstring(L, reader->slot, &reader->left);
    clua_charge(L, (long long)(reader->left / 8));
  }
  if (reader->left == 0) {
    *size = 0;
    return NULL;
  }
  *size = reader->left < CLUA_COMPILE_PIECE ? reader->left : CLUA_COMPILE_PIECE;
  const char *piece = reader->text;
  reader->text += *size;
  reader->left -= *size;
  return piece;
}

int clua_loadtext(lua_State *L, const char *text, size_t length, const char *chunkName) {
  clua_Budget *budget = clua_budget(L);
  budget->limits.compileTimedOut = 0;
  clua_ChunkReader reader = {0, 0, text, length, budget->limits.timeLimit != 0 ? clua_now() + budget->limits.timeLimit : 0, budget};
  return lua_load(L, clua_read_chunk, &reader, chunkName, "t");
}

int clua_bounded_load(lua_State *L) {
  lua_settop(L, 3);
  lua_pushnil(L);  // 4: the reader's current piece
  clua_Budget *budget = clua_budget(L);
  clua_ChunkReader reader = {0, 4, NULL, 0, 0, budget};
  // Within a handler call, the call's own deadline; at load time, a deadline of its own.
  if (budget->limits.timeLimit != 0) reader.deadline = budget->limits.countingInstructions ? budget->limits.deadline : clua_now() + budget->limits.timeLimit;
  size_t length = 0;
  const char *text = lua_tolstring(L, 1, &length);
  const char *chunkName;
  if (text != NULL) {
    chunkName = luaL_optstring(L, 2, text);
    reader.text = text;
    reader.left = length;
    // Compiling costs about an instruction for every eight bytes of source.
    clua_charge(L, (long long)(length / 8));
  } else {
    chunkName = luaL_optstring(L, 2, "=(load)");
    luaL_checktype(L, 1, LUA_TFUNCTION);
    reader.function = 1;
  }
  budget->limits.compileTimedOut = 0;
  if (lua_load(L, clua_read_chunk, &reader, chunkName, "t") != LUA_OK) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  // The environment, nil included, is the chunk's first upvalue, as Lua's load sets it.
  lua_pushvalue(L, 3);
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  return 1;
}

int clua_load_own_bytecode(lua_State *L, const char *bytes, size_t length, const char *chunkName) {
  return luaL_loadbufferx(L, bytes, length, chunkName, "b");
}

/// A growing buffer outside the Lua heap, for `clua_dump`.
typedef struct {
  char *_Nullable bytes;
  size_t length;
  size_t capacity;
  int failed;
} clua_DumpBuffer;

static int clua_dump_writer(lua_State *L, const void *part, size_t size, void *context) {
  (void)L;
  clua_DumpBuffer *buffer = (clua_DumpBuffer *)context;
  if (size > SIZE_MAX / 2 - buffer->length) {
    buffer->failed = 1;
    return 1;
  }
  if (buffer->length + size > buffer->capacity) {
    size_t capacity = buffer->capacity == 0 ? 4096 : buffer->capacity;
    while (capacity < buffer->length + size) capacity *= 2;
    char *grown = (char *)realloc(buffer->bytes, capacity);
    if (grown == NULL) {
      buffer->failed = 1;
      return 1;
    }
    buffer->bytes = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->bytes + buffer->length, part, size);
  buffer->length += size;
  return 0;
}

char *clua_dump(lua_State *L, size_t *length) {
  clua_DumpBuffer buffer = {NULL, 0, 0, 0};
  int status = lua_dump(L, clua_dump_writer, &buffer, 0);
  if (status != 0 || buffer.failed || buffer.bytes == NULL) {
    free(buffer.bytes);
    return NULL;
  }
  *length = buffer.length;
  return buffer.bytes;
}
