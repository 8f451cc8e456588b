/*
 * The whole SHMEM_SYMMETRIC_SIZE is the user's: one shmem_malloc
 * of exactly the configured size succeeds on every PE, its first and last
 * bytes are reachable by a neighbour's put, and one byte more (past the
 * heap's whole pages) is refused with NULL - a normal answer that leaves
 * the heap usable.
 *
 *   heap_full <bytes> [unset]
 *
 * <bytes> is the size the job was configured with, in plain bytes, so the
 * spelling under test (CMake runs this under every form the library
 * accepts: suffixes, the SMA_ alias, the default) is read only by the
 * library. "unset" states that the default is under test: then neither
 * variable may be set in the environment, or the run tests something else.
 */
#include "pe_test.h"

static size_t parse_bytes(const char *s)
{
    char              *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s == '\0' || *end != '\0') {
        fprintf(stderr, "heap_full: '%s' is not a number of bytes\n", s);
        exit(2);
    }
    return (size_t)v;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "unset") != 0)) {
        fprintf(stderr, "usage: heap_full <bytes> [unset]\n");
        return 2;
    }
    const size_t size = parse_bytes(argv[1]);
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);

    pe_test_init();
    int right = (pe_me + 1) % pe_npes, left = (pe_me + pe_npes - 1) % pe_npes;

    if (argc == 3) {
        pe_section("the default size is under test");
        CHECK_MSG(getenv("SHMEM_SYMMETRIC_SIZE") == NULL && getenv("SMA_SYMMETRIC_SIZE") == NULL,
                  "SHMEM_SYMMETRIC_SIZE or SMA_SYMMETRIC_SIZE is set; unset both to test "
                  "the default");
    }

    pe_section("one block of exactly SHMEM_SYMMETRIC_SIZE");
    unsigned char *p = shmem_malloc(size);
    CHECK_MSG(p != NULL, "shmem_malloc(%zu), the configured size, returned NULL", size);

    pe_section("its first and last bytes on a neighbour");
    p[0] = p[size - 1] = 0;
    shmem_barrier_all();
    unsigned char first = (unsigned char)(0x10 + pe_me), last = (unsigned char)(0x80 + pe_me);
    shmem_putmem(p, &first, 1, right);
    shmem_putmem(p + size - 1, &last, 1, right);
    shmem_barrier_all();
    CHECK_EQ(p[0], 0x10 + left);
    CHECK_EQ(p[size - 1], 0x80 + left);
    shmem_barrier_all(); /* checked everywhere before the next put lands */
    /* A transfer that ends exactly at the block's end passes the
     * symmetric-address check and lands. */
    if (size >= 64) {
        unsigned char tail[64];
        for (int i = 0; i < 64; i++) tail[i] = (unsigned char)(pe_me * 64 + i + 1);
        shmem_putmem(p + size - 64, tail, 64, right);
        shmem_barrier_all();
        for (int i = 0; i < 64; i++)
            CHECK_EQ(p[size - 64 + i], (unsigned char)(left * 64 + i + 1));
        /* Where the neighbour's block is mapped, its last byte is there too. */
        unsigned char *mapped = shmem_ptr(p + size - 1, right);
        if (mapped != NULL) CHECK_EQ(*mapped, (unsigned char)(pe_me * 64 + 64));
        shmem_barrier_all();
    }
    shmem_free(p);

    pe_section("one byte more than the heap is refused");
    /* The heap is whole pages: a size that is not a multiple of one gets
     * the rest of its last page. */
    size_t whole = (size + page - 1) / page * page;
    CHECK_MSG(shmem_malloc(whole + 1) == NULL, "shmem_malloc(%zu) on a %zu-byte heap succeeded",
              whole + 1, size);

    pe_section("the heap is whole again after the refusal");
    p = shmem_malloc(size);
    CHECK_MSG(p != NULL, "shmem_malloc(%zu) after a refused request returned NULL", size);
    shmem_free(p);
    return pe_test_finish();
}
