/*
 * Relay of one PE output stream to oshrun's stdout or stderr, whole lines
 * at a time so lines of different PEs never mix. A partial line goes out
 * when the buffer fills, when it has waited USH_RUN_RELAY_LINGER_S (a
 * prompt without newline still shows), or at end of stream.
 */
#include "oshrun.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define USH_RUN_RELAY_LINGER_S 0.2

/* Set once our stdout/stderr reader has gone away: output is dropped
 * instead of failing the job. */
static int ush_run_relay_dead[3];

void ush_run_relay_init(ush_run_relay_t *r, int fd, int out_fd, int rank, int tag)
{
    r->fd            = fd;
    r->out_fd        = out_fd;
    r->rank          = rank;
    r->tag           = tag;
    r->at_line_start = 1;
    r->partial_since = 0;
    r->len           = 0;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static void ush_run_relay_write_all(int fd, const char *p, size_t n)
{
    while (n > 0 && !ush_run_relay_dead[fd]) {
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
            ush_run_relay_dead[fd] = 1;   /* EPIPE and the like */
        }
    }
}

/* Write n bytes from the front of the buffer, adding the tag at the start
 * of every line, with as few write() calls as the tags allow. */
static void ush_run_relay_emit(ush_run_relay_t *r, size_t n)
{
    char   tag[32];
    int    tlen = r->tag ? snprintf(tag, sizeof(tag), "[PE %d] ", r->rank) : 0;
    char   out[USH_RUN_RELAY_BUF * 2];
    size_t olen = 0;

    for (size_t i = 0; i < n; i++) {
        if (r->at_line_start && tlen > 0) {
            if (olen + (size_t)tlen > sizeof(out)) {
                ush_run_relay_write_all(r->out_fd, out, olen);
                olen = 0;
            }
            memcpy(out + olen, tag, (size_t)tlen);
            olen += (size_t)tlen;
        }
        if (olen == sizeof(out)) {
            ush_run_relay_write_all(r->out_fd, out, olen);
            olen = 0;
        }
        out[olen++]      = r->buf[i];
        r->at_line_start = (r->buf[i] == '\n');
    }
    ush_run_relay_write_all(r->out_fd, out, olen);
    memmove(r->buf, r->buf + n, r->len - n);
    r->len -= n;
}

/* Emit the complete lines held; keep the unterminated tail. */
static void ush_run_relay_emit_lines(ush_run_relay_t *r, double now)
{
    size_t last_nl = 0;
    for (size_t i = r->len; i > 0; i--) {
        if (r->buf[i - 1] == '\n') {
            last_nl = i;
            break;
        }
    }
    if (last_nl > 0) {
        ush_run_relay_emit(r, last_nl);
    }
    if (r->len == sizeof(r->buf)) {
        ush_run_relay_emit(r, r->len);   /* a line longer than the buffer */
    }
    if (r->len == 0) {
        r->partial_since = 0;
    } else if (r->partial_since == 0) {
        r->partial_since = now;
    }
}

void ush_run_relay_close(ush_run_relay_t *r)
{
    if (r->fd < 0) {
        return;
    }
    /* take what is still in the pipe, then the unterminated tail */
    for (;;) {
        ssize_t got = read(r->fd, r->buf + r->len, sizeof(r->buf) - r->len);
        if (got > 0) {
            r->len += (size_t)got;
            ush_run_relay_emit_lines(r, 0);
        } else if (got < 0 && errno == EINTR) {
            continue;
        } else {
            break;
        }
    }
    if (r->len > 0) {
        ush_run_relay_emit(r, r->len);
    }
    /* with tags, a later line of another PE must not continue this one */
    if (r->tag && !r->at_line_start) {
        ush_run_relay_write_all(r->out_fd, "\n", 1);
        r->at_line_start = 1;
    }
    close(r->fd);
    r->fd            = -1;
    r->partial_since = 0;
}

void ush_run_relay_read(ush_run_relay_t *r, double now)
{
    if (r->fd < 0) {
        return;
    }
    ssize_t got = read(r->fd, r->buf + r->len, sizeof(r->buf) - r->len);
    if (got > 0) {
        r->len += (size_t)got;
        ush_run_relay_emit_lines(r, now);
    } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        ush_run_relay_close(r);
    }
}

void ush_run_relay_flush_stale(ush_run_relay_t *r, double now)
{
    if (r->len > 0 && r->partial_since > 0 &&
        now - r->partial_since >= USH_RUN_RELAY_LINGER_S) {
        ush_run_relay_emit(r, r->len);
        r->partial_since = 0;
    }
}

double ush_run_relay_due(const ush_run_relay_t *r)
{
    return (r->len > 0 && r->partial_since > 0) ?
           r->partial_since + USH_RUN_RELAY_LINGER_S : 0;
}
