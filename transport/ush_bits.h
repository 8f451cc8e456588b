/*
 * Atomic operands travel as bit patterns: an object's bytes as the low
 * `size` (4 or 8) bytes of a uint64_t. Converting through an integer of the
 * object's width keeps floats exact and works on either byte order; with a
 * constant size each call folds to one move.
 */
#ifndef USH_BITS_H
#define USH_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint64_t ush_bits_load(const void *p, size_t size)
{
    if (size == 4) {
        uint32_t u;
        memcpy(&u, p, 4);
        return u;
    }
    uint64_t u;
    memcpy(&u, p, 8);
    return u;
}

static inline void ush_bits_store(void *p, uint64_t bits, size_t size)
{
    if (size == 4) {
        uint32_t u = (uint32_t)bits;
        memcpy(p, &u, 4);
    } else {
        memcpy(p, &bits, 8);
    }
}

#endif
