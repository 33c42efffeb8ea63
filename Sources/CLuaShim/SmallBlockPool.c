#include "SmallBlockPool.h"

#include <stdlib.h>
#include <string.h>

/// A chunk's header, in front of the blocks carved from it; its size keeps the blocks aligned to the grain.
typedef struct PoolChunk {
    struct PoolChunk *next;
    size_t size;   // header included
} PoolChunk;

_Static_assert(sizeof(PoolChunk) % SMALLPOOL_GRAIN == 0, "blocks after the header stay aligned");
_Static_assert(SMALLPOOL_GRAIN >= sizeof(void *), "a free block holds its list's link");

/// The first chunk holds what a small state needs; each next one doubles, up to the largest, so a state that
/// loads a large file takes few chunks and one that stays small wastes little.
static const size_t FIRST_CHUNK = 32 * 1024;
static const size_t LARGEST_CHUNK = 1024 * 1024;

static inline int isSmall(size_t size) { return size <= SMALLPOOL_LARGEST; }

/// A new chunk to carve from, within the reserve's bound: the next size, or what is left under the bound if
/// that is at least a first chunk. The newest chunk's unused tail (less than one largest block) is given up.
static int addChunk(SmallBlockPool *pool) {
    size_t planned = pool->nextChunkSize ? pool->nextChunkSize : FIRST_CHUNK;
    size_t size = planned;
    if (pool->reserveLimit != 0) {
        size_t left = pool->reserveLimit > pool->reserved ? pool->reserveLimit - pool->reserved : 0;
        if (left < FIRST_CHUNK) return 0;
        if (size > left) size = left & ~(size_t)(SMALLPOOL_GRAIN - 1);
    }
    PoolChunk *chunk = malloc(size);
    if (chunk == NULL) return 0;
    chunk->next = pool->chunks;
    chunk->size = size;
    pool->chunks = chunk;
    pool->reserved += size;
    pool->bump = (char *)(chunk + 1);
    pool->bumpEnd = (char *)chunk + size;
    SMALLPOOL_POISON(pool->bump, (size_t)(pool->bumpEnd - pool->bump));
    if (size == planned && planned < LARGEST_CHUNK) pool->nextChunkSize = planned * 2;
    return 1;
}

/// A block for `size` bytes: a freed one first, then the newest chunk's tail, then a new chunk. NULL when the
/// pool can take no more (no memory, or its bound reached).
static void *takeBlock(SmallBlockPool *pool, size_t size) {
    void *block = smallpool_take(pool, size);
    if (block != NULL || !addChunk(pool)) return block;
    return smallpool_take(pool, size);
}

/// Whether a small block is one malloc holds (a stray) rather than the pool: asked only while strays exist,
/// which needs malloc to have failed for a chunk, or the reserve's bound to be reached.
static int isStray(const SmallBlockPool *pool, const void *block) {
    if (pool->strays == 0) return 0;
    for (const PoolChunk *chunk = pool->chunks; chunk != NULL; chunk = chunk->next) {
        const char *start = (const char *)chunk;
        if ((const char *)block >= start && (const char *)block < start + chunk->size) return 0;
    }
    return 1;
}

/// A small block: the pool's, or, when it can take no more, malloc's, remembered as a stray.
static void *allocateSmall(SmallBlockPool *pool, size_t size) {
    void *block = takeBlock(pool, size);
    if (block != NULL) return block;
    block = malloc(size);
    if (block != NULL) pool->strays += 1;
    return block;
}

static void freeSmall(SmallBlockPool *pool, void *block, size_t size) {
    if (isStray(pool, block)) {
        free(block);
        pool->strays -= 1;
        return;
    }
    if (!pool->closing) smallpool_put(pool, block, size);   // closing: its chunk goes back whole
}

/// A small block resized: in place within its class, else moved (to another class, or out to malloc).
static void *resizeSmall(SmallBlockPool *pool, void *block, size_t oldSize, size_t size) {
    int stray = isStray(pool, block);
    if (stray && isSmall(size)) return realloc(block, size);
    if (!stray && isSmall(size) && smallpool_class(size) == smallpool_class(oldSize)) {
        SMALLPOOL_POISON(block, smallpool_blocksize(smallpool_class(size)));   // addressable: the new size only
        SMALLPOOL_UNPOISON(block, size);
        return block;
    }
    void *moved = isSmall(size) ? allocateSmall(pool, size) : malloc(size);
    if (moved == NULL) return NULL;
    memcpy(moved, block, oldSize < size ? oldSize : size);
    freeSmall(pool, block, oldSize);
    return moved;
}

/// A large block shrunk to a small one moves into the pool; if the pool cannot take it, malloc keeps it (a
/// stray), so a shrink fails only if realloc does.
static void *shrinkIntoPool(SmallBlockPool *pool, void *block, size_t size) {
    void *moved = takeBlock(pool, size);
    if (moved == NULL) {
        moved = realloc(block, size);
        if (moved != NULL) pool->strays += 1;
        return moved;
    }
    memcpy(moved, block, size);
    free(block);
    return moved;
}

void *smallpool_resizeslowly(SmallBlockPool *pool, void *block, size_t oldSize, size_t size) {
    if (size == 0) {
        if (block == NULL) return NULL;   // Lua frees empty arrays it never allocated
        if (isSmall(oldSize)) freeSmall(pool, block, oldSize);
        else free(block);
        return NULL;
    }
    if (block == NULL) return isSmall(size) ? allocateSmall(pool, size) : malloc(size);
    if (isSmall(oldSize)) return resizeSmall(pool, block, oldSize, size);
    if (isSmall(size)) return shrinkIntoPool(pool, block, size);
    return realloc(block, size);
}

void smallpool_release(SmallBlockPool *pool) {
    PoolChunk *chunk = pool->chunks;
    while (chunk != NULL) {
        PoolChunk *next = chunk->next;
        SMALLPOOL_UNPOISON(chunk, chunk->size);
        free(chunk);
        chunk = next;
    }
    memset(pool, 0, sizeof(*pool));
}
