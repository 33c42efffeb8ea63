#ifndef CLUASHIM_SMALLBLOCKPOOL_H
#define CLUASHIM_SMALLBLOCKPOOL_H

// One Lua state's allocator of small blocks (DESIGN.md, "One state's memory"). Lua's objects are mostly small
// (strings, tables, closures, upvalues, frames, the prototypes a chunk loads) and a state makes and frees them
// by the million; malloc's general bookkeeping costs several times what a size class does. Blocks of at most
// SMALLPOOL_LARGEST bytes come from chunks the state owns, one free list per size class, reused before the
// chunks grow; larger ones go to malloc. Lua tells the allocator every block's size (lua_Alloc's osize), so
// the class of a block is known from its size, with no header. All chunks are released when the state closes,
// and the frees lua_close makes before that cost nothing.
//
// Not thread-safe, and needs not be: a state is used by one thread at a time (DESIGN.md, "Who owns the state").
// The one other thread that touches a state, the hook's watchdog, allocates nothing.

#include <stddef.h>

enum {
    SMALLPOOL_GRAIN = 16,                                   // class sizes step by this; blocks are aligned to it
    SMALLPOOL_LARGEST = 256,                                // the largest block a class holds
    SMALLPOOL_CLASSES = SMALLPOOL_LARGEST / SMALLPOOL_GRAIN,
};

struct PoolChunk;

typedef struct SmallBlockPool {
    void *freeBlocks[SMALLPOOL_CLASSES];   // each class's freed blocks, linked through their first word
    char *bump, *bumpEnd;                  // the newest chunk's part never handed out
    struct PoolChunk *chunks;              // every chunk, newest first
    size_t reserved;                       // bytes of all chunks
    size_t nextChunkSize;                  // grows from the first chunk's size to the largest
    size_t reserveLimit;                   // the most `reserved` may reach; 0: no bound
    size_t strays;                         // small blocks malloc holds: the pool could not take them
    int closing;                           // lua_close is freeing everything: frees of pooled blocks are dropped
} SmallBlockPool;

// Under AddressSanitizer a free block and a chunk's unused tail are poisoned, and a block handed out is
// addressable for the bytes Lua asked for only, so a use after free or an overflow into a class's slack is still
// reported, as malloc's blocks were.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define SMALLPOOL_POISON(address, size) ASAN_POISON_MEMORY_REGION(address, size)
#define SMALLPOOL_UNPOISON(address, size) ASAN_UNPOISON_MEMORY_REGION(address, size)
#endif
#endif
#ifndef SMALLPOOL_POISON
#define SMALLPOOL_POISON(address, size) ((void)(address), (void)(size))
#define SMALLPOOL_UNPOISON(address, size) ((void)(address), (void)(size))
#endif

static inline size_t smallpool_class(size_t size) { return (size - 1) / SMALLPOOL_GRAIN; }
static inline size_t smallpool_blocksize(size_t class) { return (class + 1) * SMALLPOOL_GRAIN; }

/// A block for `size` bytes (1 to SMALLPOOL_LARGEST) from its class's free list, else from the newest chunk's
/// tail; NULL when both are empty.
static inline void *smallpool_take(SmallBlockPool *pool, size_t size) {
    size_t class = smallpool_class(size);
    void *block = pool->freeBlocks[class];
    if (block != NULL) {
        SMALLPOOL_UNPOISON(block, sizeof(void *));
        pool->freeBlocks[class] = *(void **)block;
    } else if ((size_t)(pool->bumpEnd - pool->bump) >= smallpool_blocksize(class)) {
        block = pool->bump;
        pool->bump += smallpool_blocksize(class);
    } else {
        return NULL;
    }
    SMALLPOOL_UNPOISON(block, size);
    return block;
}

/// A pooled block of `size` bytes back on its class's free list.
static inline void smallpool_put(SmallBlockPool *pool, void *block, size_t size) {
    size_t class = smallpool_class(size);
    SMALLPOOL_UNPOISON(block, sizeof(void *));   // Lua may have asked for fewer bytes than the link takes
    *(void **)block = pool->freeBlocks[class];
    pool->freeBlocks[class] = block;
    SMALLPOOL_POISON(block, smallpool_blocksize(class));
}

/// What smallpool_resize does in the cases the inline part leaves to it.
void *smallpool_resizeslowly(SmallBlockPool *pool, void *block, size_t oldSize, size_t size);

/// lua_Alloc's contract without its accounting: `size` 0 frees `block` (of `oldSize` bytes) and returns NULL;
/// otherwise a block of `size` bytes holding the first min(oldSize, size) of the old one, or NULL when no
/// memory is left (the old block is then untouched). A shrink fails only if malloc's own realloc does.
/// Inline for the common cases, a new small block and a small block freed, which are most of Lua's calls
/// (some 20,000 per scenario): a call to the pool would cost as much as what it does.
static inline void *smallpool_resize(SmallBlockPool *pool, void *block, size_t oldSize, size_t size) {
    if (pool->strays == 0) {
        if (block == NULL && size - 1 < SMALLPOOL_LARGEST) {   // 1 to SMALLPOOL_LARGEST bytes
            void *taken = smallpool_take(pool, size);
            if (taken != NULL) return taken;
        } else if (size == 0 && block != NULL && oldSize - 1 < SMALLPOOL_LARGEST) {
            if (!pool->closing) smallpool_put(pool, block, oldSize);   // closing: its chunk goes back whole
            return NULL;
        }
    }
    return smallpool_resizeslowly(pool, block, oldSize, size);
}

/// Every chunk back to malloc; call once Lua has freed every block (after lua_close).
void smallpool_release(SmallBlockPool *pool);

#endif
