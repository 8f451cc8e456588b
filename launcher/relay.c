/*
 * Relay of one PE output stream to oshrun's stdout or stderr, whole lines
 * at a time, so lines of different PEs never mix. A partial line waits for
 * its newline for as long as it takes: a PE whose stdio buffer ends mid-line
 * may be descheduled for any time before it writes the rest, and flushing
 * the piece meanwhile is what tore lines under load. The one exception is a
 * line longer than USH_RUN_RELAY_LINE_MAX, cut into newline-terminated
 * pieces of that size (each tagged with --tag-output). At end of stream an
 * unterminated last line is ended with a newline for the same reason.
 *
 * With --output-filename the bytes also go, untouched and untagged, to the
 * PE's own file.
 */
#include "oshrun.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define USH_RUN_RELAY_MIN_CAP 4096

/* Set once our stdout/stderr reader has gone away: output is dropped
 * instead of failing the job. Indexed by descriptor (1 and 2). */
static int ush_run_relay_dead[3];

/* Lines are gathered here and written with as few write() calls as
 * possible; one whole line (the longest piece plus its tag and newline)
 * always fits. Only the job loop's thread uses it. */
static char   ush_run_relay_out[USH_RUN_RELAY_LINE_MAX + 64];
static size_t ush_run_relay_olen;

void ush_run_relay_init(ush_run_relay_t *r, int fd, int out_fd, int file_fd, int rank,
                        int tag)
{
    r->fd      = fd;
    r->out_fd  = out_fd;
    r->file_fd = file_fd;
    r->rank    = rank;
    r->tag     = tag;
    r->len     = 0;
    r->cap     = 0;
    r->buf     = NULL;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* 0, or -1 once the reader is gone (EPIPE and the like). */
static int ush_run_relay_write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else if (w < 0 && errno == EAGAIN) {
            /* our stdout was handed to us non-blocking; wait for room */
            struct pollfd pfd = { .fd = fd, .events = POLLOUT };
            poll(&pfd, 1, 100);
        } else {
            return -1;
        }
    }
    return 0;
}

static void ush_run_relay_out_flush(int out_fd)
{
    if (ush_run_relay_olen > 0 && !ush_run_relay_dead[out_fd] &&
        ush_run_relay_write_all(out_fd, ush_run_relay_out, ush_run_relay_olen) != 0) {
        ush_run_relay_dead[out_fd] = 1;
    }
    ush_run_relay_olen = 0;
}

/* Queue one line (without its newline) for the terminal, tagged. */
static void ush_run_relay_out_line(const ush_run_relay_t *r, const char *line, size_t n)
{
    char tag[32];
    int  tlen = r->tag ? snprintf(tag, sizeof(tag), "[PE %d] ", r->rank) : 0;

    if (r->out_fd == 2 && ush_run_fold_line(r->rank, line, n)) {
        return; /* another PE's start-up failure, said already (fold.c) */
    }
    if (ush_run_relay_olen + (size_t)tlen + n + 1 > sizeof(ush_run_relay_out)) {
        ush_run_relay_out_flush(r->out_fd);
    }
    memcpy(ush_run_relay_out + ush_run_relay_olen, tag, (size_t)tlen);
    ush_run_relay_olen += (size_t)tlen;
    memcpy(ush_run_relay_out + ush_run_relay_olen, line, n);
    ush_run_relay_olen += n;
    ush_run_relay_out[ush_run_relay_olen++] = '\n';
}

/* Send the complete lines held (all that is held when whole), keep the
 * unterminated tail. */
static void ush_run_relay_emit(ush_run_relay_t *r, int whole)
{
    size_t start = 0;

    for (size_t i = 0; i < r->len; i++) {
        if (r->buf[i] == '\n') {
            ush_run_relay_out_line(r, r->buf + start, i - start);
            start = i + 1;
        }
    }
    if (whole && start < r->len) {
        ush_run_relay_out_line(r, r->buf + start, r->len - start);
        start = r->len;
    }
    ush_run_relay_out_flush(r->out_fd);
    memmove(r->buf, r->buf + start, r->len - start);
    r->len -= start;
}

/* Room to read into: grow up to the bound; a buffer at the bound holding
 * no newline is one over-long line, sent as a piece. 0, or -1 when there is
 * no buffer at all (out of memory). */
static int ush_run_relay_make_room(ush_run_relay_t *r)
{
    if (r->len < r->cap) {
        return 0;
    }
    if (r->cap < USH_RUN_RELAY_LINE_MAX) {
        size_t cap = r->cap ? 2 * r->cap : USH_RUN_RELAY_MIN_CAP;
        char  *buf = realloc(r->buf, cap > USH_RUN_RELAY_LINE_MAX ?
                                     USH_RUN_RELAY_LINE_MAX : cap);
        if (buf != NULL) {
            r->buf = buf;
            r->cap = cap > USH_RUN_RELAY_LINE_MAX ? USH_RUN_RELAY_LINE_MAX : cap;
            return 0;
        }
        if (r->cap == 0) {
            return -1;
        }
    }
    ush_run_relay_emit(r, 1);   /* the whole buffer is one unfinished line */
    return 0;
}

/* Read what the pipe holds now: >0 bytes read, 0 at end of stream, -1 when
 * nothing is there (or on error, after which the stream is closed). */
static ssize_t ush_run_relay_fill(ush_run_relay_t *r)
{
    ssize_t got;

    if (ush_run_relay_make_room(r) != 0) {
        ush_run_msg("out of memory relaying the output of PE %d; dropping it", r->rank);
        return 0;
    }
    do {
        got = read(r->fd, r->buf + r->len, r->cap - r->len);
    } while (got < 0 && errno == EINTR);
    if (got > 0) {
        if (r->file_fd >= 0 &&
            ush_run_relay_write_all(r->file_fd, r->buf + r->len, (size_t)got) != 0) {
            ush_run_msg("writing the output file of PE %d: %s; no more is written to it",
                        r->rank, strerror(errno));
            close(r->file_fd);
            r->file_fd = -1;
        }
        r->len += (size_t)got;
        ush_run_relay_emit(r, 0);
    }
    return got;
}

void ush_run_relay_close(ush_run_relay_t *r)
{
    if (r->fd < 0) {
        return;
    }
    /* take what is still in the pipe, then the unterminated tail */
    while (ush_run_relay_fill(r) > 0) {
    }
    if (r->len > 0) {
        ush_run_relay_emit(r, 1);
    }
    close(r->fd);
    r->fd = -1;
    if (r->file_fd >= 0) {
        close(r->file_fd);
        r->file_fd = -1;
    }
    free(r->buf);
    r->buf = NULL;
    r->len = r->cap = 0;
}

void ush_run_relay_read(ush_run_relay_t *r)
{
    if (r->fd < 0) {
        return;
    }
    ssize_t got = ush_run_relay_fill(r);
    if (got == 0 || (got < 0 && errno != EAGAIN)) {
        ush_run_relay_close(r);
    }
}
