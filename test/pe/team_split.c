/*
 * Team management (OpenSHMEM 1.5/1.6): SHMEM_TEAM_WORLD and
 * SHMEM_TEAM_SHARED (every PE is on this one node, so it is the world),
 * shmem_team_my_pe/n_pes, get_config, translate_pe, split_strided (valid
 * triplets, negative and zero strides, PEs outside get SHMEM_TEAM_INVALID,
 * invalid triplets return non-zero and SHMEM_TEAM_INVALID everywhere),
 * nested splits, split_2d, destroy and create again many more times than
 * there are team slots, many teams alive at once, team_sync and team_ptr.
 * Team contexts are in team_ctx.c.
 */
#include "pe_test.h"

#if !PE_SPEC_AT_LEAST(1, 5)
int main(void)
{
    pe_test_init(); /* teams need OpenSHMEM 1.5 */
    return pe_test_finish();
}
#else

static long value;      /* PE w holds w * 7 + 1 */

/* Checks a team that should hold world PEs start + i * stride, i < size. */
static void check_team(shmem_team_t t, int start, int stride, int size, const char *what)
{
    const int me = pe_me, npes = pe_npes;
    int       mine = -1;

    pe_section_set(what);
    for (int i = 0; i < size; i++)
        if (start + i * stride == me)
            mine = i;
    if (mine < 0) {
        CHECK_MSG(t == SHMEM_TEAM_INVALID, "%s: a PE outside gets SHMEM_TEAM_INVALID", what);
        CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEM_TEAM_INVALID), -1);
        return;
    }
    CHECK_MSG(t != SHMEM_TEAM_INVALID, "%s: a member gets a valid team", what);
    CHECK_EQ(shmem_team_my_pe(t), mine);
    CHECK_EQ(shmem_team_n_pes(t), size);
    for (int i = 0; i < size; i++) {
        CHECK_EQ(shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD), start + i * stride);
        CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, start + i * stride, t), i);
    }
    for (int w = 0; w < npes; w++) {
        int in = 0;
        for (int i = 0; i < size; i++)
            in |= start + i * stride == w;
        if (!in)
            CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, t), -1);
    }
    CHECK_EQ(shmem_team_translate_pe(t, size, SHMEM_TEAM_WORLD), -1);
    CHECK_EQ(shmem_team_translate_pe(t, -1, SHMEM_TEAM_WORLD), -1);
    CHECK_EQ(shmem_team_translate_pe(t, 0, SHMEM_TEAM_INVALID), -1);
    CHECK_EQ(shmem_team_sync(t), 0);
}

static void predefined(void)
{
    const int me = pe_me, npes = pe_npes;
    pe_section("predefined teams");
    CHECK_EQ(shmem_team_my_pe(SHMEM_TEAM_WORLD), me);
    CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_WORLD), npes);
    CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_SHARED), npes); /* one node */
    CHECK_EQ(shmem_team_my_pe(SHMEM_TEAM_SHARED), me);
    CHECK_EQ(shmem_team_my_pe(SHMEM_TEAM_INVALID), -1);
    CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_INVALID), -1);
    for (int w = 0; w < npes; w++) {
        CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, SHMEM_TEAM_SHARED), w);
        CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_SHARED, w, SHMEM_TEAM_WORLD), w);
    }
    CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD), -1);
    check_team(SHMEM_TEAM_WORLD, 0, 1, npes, "world");
    check_team(SHMEM_TEAM_SHARED, 0, 1, npes, "shared");

    shmem_team_config_t cfg;
    memset(&cfg, 0x55, sizeof(cfg));
    CHECK_EQ(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg), 0);
    CHECK(cfg.num_contexts >= 0);
    CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0);
}

/* One split: must succeed, and give the right team to exactly the members. */
static void split_ok(shmem_team_t parent, int pstart, int pstride, int start, int stride, int size)
{
    char         what[128];
    shmem_team_t t = (shmem_team_t)&value; /* anything but INVALID: the call must set it */
    snprintf(what, sizeof(what), "split_strided(%d, %d, %d) of (%d, %d, ...)", start, stride, size,
             pstart, pstride);
    pe_section_set(what);
    CHECK_EQ(shmem_team_split_strided(parent, start, stride, size, NULL, 0, &t), 0);
    check_team(t, pstart + start * pstride, stride * pstride, size, what);
    shmem_team_sync(parent); /* only the parent's members are here */
    if (t != SHMEM_TEAM_INVALID)
        shmem_team_destroy(t);
}

static void split_bad(int start, int stride, int size)
{
    char         what[96];
    shmem_team_t t = SHMEM_TEAM_WORLD;
    snprintf(what, sizeof(what), "invalid split_strided(%d, %d, %d)", start, stride, size);
    pe_section_set(what);
    CHECK_MSG(shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &t) != 0,
              "%s returns non-zero", what);
    CHECK_MSG(t == SHMEM_TEAM_INVALID, "%s gives SHMEM_TEAM_INVALID", what);
    shmem_barrier_all();
}

static void splits(void)
{
    const int npes = pe_npes;
    pe_section("split_strided");
    split_ok(SHMEM_TEAM_WORLD, 0, 1, 0, 1, npes);
    split_ok(SHMEM_TEAM_WORLD, 0, 1, 0, 2, (npes + 1) / 2);
    if (npes > 1)
        split_ok(SHMEM_TEAM_WORLD, 0, 1, 1, 2, npes / 2);
    split_ok(SHMEM_TEAM_WORLD, 0, 1, npes - 1, 1, 1);
    if (npes > 2)
        split_ok(SHMEM_TEAM_WORLD, 0, 1, 1, 1, npes - 2);
    if (npes > 3)
        split_ok(SHMEM_TEAM_WORLD, 0, 1, 0, 3, (npes + 2) / 3);
    split_ok(SHMEM_TEAM_SHARED, 0, 1, 0, 1, npes);
#if PE_SPEC_AT_LEAST(1, 6)
    /* 1.6: negative strides reverse the order; stride 0 with size 1. */
    split_ok(SHMEM_TEAM_WORLD, 0, 1, npes - 1, -1, npes);
    if (npes > 2)
        split_ok(SHMEM_TEAM_WORLD, 0, 1, npes - 1, -2, (npes + 1) / 2);
    split_ok(SHMEM_TEAM_WORLD, 0, 1, npes / 2, 0, 1);
#endif

    pe_section("split_strided of a split");
    {
        shmem_team_t even = SHMEM_TEAM_INVALID;
        CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even),
                 0);
        /* Every PE calls, but only the parent's members take part. */
        if (even != SHMEM_TEAM_INVALID) {
            int en = shmem_team_n_pes(even);
            if (en > 1)
                split_ok(even, 0, 2, 1, 1, en - 1); /* world 2, 4, ... */
            split_ok(even, 0, 2, 0, 2, (en + 1) / 2); /* world 0, 4, 8, ... */
            shmem_team_sync(even);
        }
        shmem_barrier_all();
        if (even != SHMEM_TEAM_INVALID)
            shmem_team_destroy(even);
    }

    pe_section("invalid triplets");
    split_bad(npes, 1, 1);
    split_bad(-1, 1, 1);
    split_bad(0, 1, npes + 1);
    split_bad(0, 1, 0);
    split_bad(0, 1, -1);
    split_bad(npes - 1, 1, 2);
    if (npes > 1)
        split_bad(1, 2, (npes + 1) / 2 + 1);
#if PE_SPEC_AT_LEAST(1, 6)
    split_bad(0, -1, 2);
#endif
    {
        shmem_team_t t = SHMEM_TEAM_WORLD;
        CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0);
        CHECK(t == SHMEM_TEAM_INVALID);
    }
    shmem_barrier_all();
}

static void split_2d(void)
{
    const int me = pe_me, npes = pe_npes;
    int       xr[4] = {1, 2, 3, npes};

    for (int k = 0; k < 4; k++) {
        int  xrange = xr[k];
        char what[64];
        if (k == 3 && npes <= 3)
            continue;
        snprintf(what, sizeof(what), "split_2d xrange %d", xrange);
        pe_section(what);
        shmem_team_t x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
        CHECK_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange, NULL, 0, &x, NULL, 0, &y), 0);
        const int row = me / xrange, col = me % xrange;
        const int xsize = npes - row * xrange < xrange ? npes - row * xrange : xrange;
        const int ysize = (npes - col + xrange - 1) / xrange;
        check_team(x, row * xrange, 1, xsize, what);
        check_team(y, col, xrange, ysize, what);
        shmem_barrier_all();
        shmem_team_destroy(x);
        shmem_team_destroy(y);
    }
}

static void recycle(void)
{
    const int npes = pe_npes, me = pe_me;
    pe_section("destroy and create again, 300 times");
    for (int r = 0; r < 300; r++) {
        shmem_team_t t = SHMEM_TEAM_INVALID;
        int          start = r % 2, size = start ? npes / 2 : (npes + 1) / 2;
        if (size == 0)
            continue;
        CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, start, 2, size, NULL, 0, &t), 0);
        if (t != SHMEM_TEAM_INVALID) {
            CHECK_EQ(shmem_team_my_pe(t), me / 2);
            CHECK_EQ(shmem_team_sync(t), 0);
            shmem_team_destroy(t);
        } else {
            CHECK(me % 2 != start);
        }
    }
    shmem_barrier_all();

    pe_section("many teams alive at once");
    enum { MANY = 24 };
    shmem_team_t teams[MANY];
    for (int i = 0; i < MANY; i++) {
        int start = i % npes, size = npes - start;
        CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, start, 1, size, NULL, 0, &teams[i]), 0);
        CHECK_EQ(shmem_team_n_pes(teams[i]), me >= start ? size : -1);
    }
    for (int i = 0; i < MANY; i++)
        if (teams[i] != SHMEM_TEAM_INVALID) {
            CHECK_EQ(shmem_team_my_pe(teams[i]), me - i % npes);
            CHECK_EQ(shmem_team_sync(teams[i]), 0);
        }
    /* Destroyed out of creation order. */
    for (int i = 1; i < MANY; i += 2)
        if (teams[i] != SHMEM_TEAM_INVALID)
            shmem_team_destroy(teams[i]);
    for (int i = MANY - 2; i >= 0; i -= 2)
        if (teams[i] != SHMEM_TEAM_INVALID)
            shmem_team_destroy(teams[i]);
    shmem_barrier_all();
}

static void config(void)
{
    const int npes = pe_npes;
    pe_section("team config");
    shmem_team_config_t cfg = {.num_contexts = 2}, got;
    shmem_team_t        t = SHMEM_TEAM_INVALID;
    /* A configuration given at the split is what get_config reports. */
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &cfg,
                                      SHMEM_TEAM_NUM_CONTEXTS, &t), 0);
    CHECK_EQ(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
    CHECK_EQ(got.num_contexts, 2);

    shmem_barrier_all();
    shmem_team_destroy(t);
}

#if PE_SPEC_AT_LEAST(1, 6)
static void team_ptr(void)
{
    const int me = pe_me, npes = pe_npes;
    pe_section("team_ptr");
    value = me * 7 + 1;
    shmem_barrier_all();
    shmem_team_t rev = SHMEM_TEAM_INVALID;
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &rev), 0);
    for (int p = 0; p < npes; p++) {
        long *w = shmem_team_ptr(SHMEM_TEAM_WORLD, &value, p);
        long *r = shmem_team_ptr(rev, &value, p);
        CHECK(w != NULL && r != NULL); /* one node: every peer is mapped */
        CHECK_EQ(*w, (long)(p * 7 + 1));
        CHECK_EQ(*r, (long)((npes - 1 - p) * 7 + 1));
    }
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &value, me) == &value);
    CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, &value, 0) == NULL);
    shmem_barrier_all();
    shmem_team_destroy(rev);
}
#endif

int main(void)
{
    pe_test_init();
    predefined();
    splits();
    split_2d();
    recycle();
    config();
#if PE_SPEC_AT_LEAST(1, 6)
    team_ptr();
#endif
    return pe_test_finish();
}
#endif
