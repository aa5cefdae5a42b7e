// Loading and dumping chunks: text from files and rules, bytecode only of our own making.
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/// Bytes the parser is given at a time: the clock is read between pieces.
enum { CLUA_COMPILE_PIECE = 4096 };

/// Text for lua_load in pieces, with the compile's deadline.
typedef struct {
  const char *text;
  size_t left;
  long long deadline;
  clua_Budget *budget;
} clua_TextReader;

static const char *clua_read_text(lua_State *L, void *context, size_t *size) {
  clua_TextReader *reader = (clua_TextReader *)context;
  if (reader->left == 0) return NULL;
  // Compiling runs no instruction the count hook could see, so its own clock stops it.
  if (reader->deadline != 0 && clua_now() > reader->deadline) {
    reader->budget->compileTimedOut = 1;
    clua_raise(L, "compiling took longer than the time limit of %I ms",
               (lua_Integer)(reader->budget->timeLimit / 1000000));
  }
  *size = reader->left < CLUA_COMPILE_PIECE ? reader->left : CLUA_COMPILE_PIECE;
  const char *piece = reader->text;
  reader->text += *size;
  reader->left -= *size;
  return piece;
}

int clua_loadtext(lua_State *L, const char *text, size_t length, const char *chunkName) {
  clua_Budget *budget = clua_budget(L);
  budget->compileTimedOut = 0;
  clua_TextReader reader = {text, length, budget->timeLimit != 0 ? clua_now() + budget->timeLimit : 0, budget};
  return lua_load(L, clua_read_text, &reader, chunkName, "t");
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
