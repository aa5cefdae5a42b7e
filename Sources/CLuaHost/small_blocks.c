// Lua's small blocks, from slabs by size class. Most of what Lua allocates is small and
// short-lived (a closure passed to `test`, a string, a table's parts), and malloc and free
// cost some 200 instructions a pair: a quarter of what `droprules test` spent. Here a
// block is taken from its class's free list or cut from the newest slab, and given back
// to the list, in a few instructions. The memory cap still counts the bytes Lua asks for
// (budget.c); what the slabs keep free for reuse is at most what was once in use, so a
// state holds at most its cap in small blocks, and frees it all when it closes.
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/// 16 KiB: 64 blocks of the largest class, a few hundred of the common ones.
enum { CLUA_SLAB_BYTES = 16 * 1024, CLUA_SLAB_HEADER = 16, CLUA_CLASS_BYTES = 16 };

/// The class of a block of `size` bytes (1 to 256): 1 to 16.
static inline size_t clua_class_of(size_t size) { return (size + CLUA_CLASS_BYTES - 1) / CLUA_CLASS_BYTES; }

static void *clua_take_small(clua_SmallBlocks *pool, size_t size) {
  size_t class = clua_class_of(size);
  void *block = pool->freeBlocks[class];
  if (block != NULL) {
    pool->freeBlocks[class] = *(void **)block;
    return block;
  }
  size_t bytes = class * CLUA_CLASS_BYTES;
  if (pool->unused == NULL || pool->unusedBytes < bytes) {
    char *slab = malloc(CLUA_SLAB_BYTES);
    if (slab == NULL) return NULL;
    // What is left of the last slab is too small for this block; it stays unused.
    *(void **)slab = pool->slabs;
    pool->slabs = slab;
    pool->slabBytes += CLUA_SLAB_BYTES;
    // The header keeps blocks 16-byte aligned, as malloc's are.
    pool->unused = slab + CLUA_SLAB_HEADER;
    pool->unusedBytes = CLUA_SLAB_BYTES - CLUA_SLAB_HEADER;
  }
  block = pool->unused;
  pool->unused += bytes;
  pool->unusedBytes -= bytes;
  return block;
}

/// A block that Lua now says has `size` bytes may be larger (a shrink keeps its block):
/// it goes to the list of the class of `size`, which it more than fills.
static inline void clua_give_small(clua_SmallBlocks *pool, void *block, size_t size) {
  size_t class = clua_class_of(size);
  *(void **)block = pool->freeBlocks[class];
  pool->freeBlocks[class] = block;
}

void *clua_resize_block(clua_SmallBlocks *pool, void *block, size_t oldSize, size_t newSize) {
  int isSmall = newSize <= CLUA_SMALL_BLOCK_LIMIT;
  if (block == NULL) return isSmall ? clua_take_small(pool, newSize) : malloc(newSize);
  int wasSmall = oldSize <= CLUA_SMALL_BLOCK_LIMIT;
  if (!wasSmall && !isSmall) return realloc(block, newSize);
  // A small block that shrinks, or grows within its class, stays where it is.
  if (wasSmall && isSmall && clua_class_of(newSize) <= clua_class_of(oldSize)) return block;
  // Otherwise the block moves, so that its size alone always tells where it came from.
  // (A large block that cannot move to a slab when it shrinks stays, as Lua asks; it is
  // then given to a free list when freed, and never returned to malloc. That takes
  // malloc failing, when nothing else is going well either.)
  void *moved = isSmall ? clua_take_small(pool, newSize) : malloc(newSize);
  if (moved == NULL) return NULL;
  memcpy(moved, block, oldSize < newSize ? oldSize : newSize);
  if (wasSmall) {
    clua_give_small(pool, block, oldSize);
  } else {
    free(block);
  }
  return moved;
}

void clua_release_block(clua_SmallBlocks *pool, void *block, size_t size) {
  if (size <= CLUA_SMALL_BLOCK_LIMIT) {
    clua_give_small(pool, block, size);
  } else {
    free(block);
  }
}

void clua_release_slabs(clua_SmallBlocks *pool) {
  void *slab = pool->slabs;
  while (slab != NULL) {
    void *next = *(void **)slab;
    free(slab);
    slab = next;
  }
  memset(pool, 0, sizeof *pool);
}
