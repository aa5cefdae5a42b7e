// Lua's small blocks, kept for reuse. Most of what Lua allocates is small and short-lived
// (the closure a file passes to `test`, a string, a table's parts), and a malloc and a
// free cost some 200 instructions a pair: a quarter of what `droprules test` spent. Here a
// block of up to 256 bytes is malloc'd at the size of its 16-byte class, and when freed is
// kept on its class's list, for the next block of that class, while the state holds less
// than CLUA_BLOCK_CACHE_BYTES of them; after that it goes back to malloc.
//
// Every block is malloc's, so any block may go back to it, and the cache holds at most
// its limit: no order of allocations can make a state hold more than its cap counts and
// that limit. (A cache of class-sorted slabs, tried first, could: freed memory kept for
// one class cannot serve another, and a rule filled the cap class after class.) A block
// that changes class moves, so each cached block has its class's size.
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { CLUA_SMALL_BLOCK_LIMIT = CLUA_BLOCK_CLASSES * CLUA_BLOCK_CLASS_BYTES };

_Static_assert(sizeof(((clua_BlockCache *)0)->freeBlocks) / sizeof(void *) == CLUA_BLOCK_CLASSES + 1,
               "one free list per class, and index 0 unused");
_Static_assert(CLUA_BLOCK_CLASS_BYTES >= sizeof(void *), "a free block holds the link to the next");

/// The class of a block of `size` bytes (1 to CLUA_SMALL_BLOCK_LIMIT): 1 to CLUA_BLOCK_CLASSES.
static inline size_t clua_class_of(size_t size) {
  return (size + CLUA_BLOCK_CLASS_BYTES - 1) / CLUA_BLOCK_CLASS_BYTES;
}

static void *clua_take_block(clua_BlockCache *cache, size_t size) {
  if (size > CLUA_SMALL_BLOCK_LIMIT) return malloc(size);
  size_t class = clua_class_of(size);
  void *block = cache->freeBlocks[class];
  if (block == NULL) return malloc(class * CLUA_BLOCK_CLASS_BYTES);
  cache->freeBlocks[class] = *(void **)block;
  cache->cachedBytes -= class * CLUA_BLOCK_CLASS_BYTES;
  return block;
}

void clua_release_block(clua_BlockCache *cache, void *block, size_t size) {
  if (size <= CLUA_SMALL_BLOCK_LIMIT) {
    size_t class = clua_class_of(size);
    size_t bytes = class * CLUA_BLOCK_CLASS_BYTES;
    if (cache->cachedBytes + bytes <= CLUA_BLOCK_CACHE_BYTES) {
      *(void **)block = cache->freeBlocks[class];
      cache->freeBlocks[class] = block;
      cache->cachedBytes += bytes;
      return;
    }
  }
  free(block);
}

void *clua_resize_block(clua_BlockCache *cache, void *block, size_t oldSize, size_t newSize) {
  if (block == NULL) return clua_take_block(cache, newSize);
  int wasSmall = oldSize <= CLUA_SMALL_BLOCK_LIMIT, isSmall = newSize <= CLUA_SMALL_BLOCK_LIMIT;
  if (!wasSmall && !isSmall) return realloc(block, newSize);
  if (wasSmall && isSmall && clua_class_of(newSize) == clua_class_of(oldSize)) return block;
  // Any other change moves the block, so that a block is always its class's size. (If a
  // shrink cannot move, the caller keeps the block, as Lua asks: it is larger than its
  // new class then, which wastes a little and breaks nothing, since malloc frees it.)
  void *moved = clua_take_block(cache, newSize);
  if (moved == NULL) return NULL;
  memcpy(moved, block, oldSize < newSize ? oldSize : newSize);
  clua_release_block(cache, block, oldSize);
  return moved;
}

void clua_empty_block_cache(clua_BlockCache *cache) {
  for (size_t class = 1; class <= CLUA_BLOCK_CLASSES; class++) {
    void *block = cache->freeBlocks[class];
    while (block != NULL) {
      void *next = *(void **)block;
      free(block);
      block = next;
    }
    cache->freeBlocks[class] = NULL;
  }
  cache->cachedBytes = 0;
}
