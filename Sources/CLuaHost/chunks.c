// Loading and dumping chunks: text from files and rules, bytecode only of our own making.
#include <stdlib.h>
#include <string.h>

#include "CLuaHost.h"

int clua_loadtext(lua_State *L, const char *text, size_t length, const char *chunkName) {
  return luaL_loadbufferx(L, text, length, chunkName, "t");
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
