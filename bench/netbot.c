/* bench/netbot.c - the bots of bench/net.py, in C: a load generator that costs the
 * host's machine as little CPU as a client can.
 *
 * Same job and contract as ``_worker`` in bench/net.py (read that first): one process
 * plays seat SEAT at every table slot, one TCP socket per slot to 127.0.0.1:PORT; a slot
 * is a list of tables played one after another (a game that ends is followed by the
 * slot's next table). It says hello, joins the slot's first table on welcome, and on
 * every update for its current table:
 *   - an act pending and update.seq >= pending: the act is answered; its latency is
 *     recorded if the update arrives inside [MEASURE_FROM, STOP_AT);
 *   - status "finished": join the slot's next table (none left: the slot ran dry);
 *   - "legal" present, "seat" == SEAT and nothing pending: send an act whose action is
 *     a uniformly random element of legal, its msgpack bytes copied verbatim.
 * At STOP_AT it prints one JSON object on stdout with the keys the Python worker
 * returns: latencies (seconds), actions, answered, cpu, system (getrusage, seconds,
 * from the first loop turn at or after MEASURE_FROM), ran_dry, closed.
 *
 * Usage: netbot PORT SEAT MEASURE_FROM STOP_AT SEED [NAP_US] < slots
 *   slots: one line per slot, its table ids separated by spaces; a line may start with
 *   "@S" to play seat S there instead of SEAT (one process for several seats: the
 *   four updates of a move then wake one process once, not four processes);
 *   MEASURE_FROM, STOP_AT: CLOCK_MONOTONIC seconds (Python's time.monotonic on Linux);
 *   NAP_US (default 0, off): after each wake-up that found a socket ready, sleep that
 *   many µs before waiting again, so that the next wake-up serves several updates.
 *   Each wake-up is a context switch, the bots' largest cost (perf: finish_task_switch);
 *   napping cuts their CPU per action, but a latency then includes up to NAP_US of the
 *   bot not reading, and a table waits for it on every move: for many tables only (the
 *   Python bot never naps).
 *        netbot --check < frames
 *   frames: 4-byte big-endian length + body (at most 16 MiB), repeated; prints one line
 *   per frame: "ok" if the body is exactly one well-formed msgpack object, else "bad",
 *   then " map" if it reads as a message (tests compare the skipper with Python's
 *   msgpack).
 *
 * Everything from the socket is hostile: every length is checked against the bytes
 * there are, nesting is skipped without recursion, a frame over the host's 1 MiB limit
 * or a body that is not one msgpack map with a str "t" (an update: a str "table", an
 * int "seq", a str "status") ends that socket: the slot stops, counted under "closed"
 * (as a connection the host closed) and named on stderr. Never a crash.
 *
 * One thread, level-triggered epoll, non-blocking sockets; a read takes what the
 * socket has (up to the buffer's room), writes go out at once and the rare remainder
 * waits for EPOLLOUT. Build: cc -O2 -o netbot netbot.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* The host's frames are at most 1 MiB (docs/protocol.md, Framing; limits.md max_frame). */
#define MAX_FRAME (1u << 20)
/* Room a read gets at least: as much as the Python bot's recv(65536). */
#define READ_CHUNK 65536u
/* Slots' input (stdin) at most 16 MiB: ~1.5 million table ids. */
#define MAX_STDIN (16u << 20)
/* A table id at most 255 bytes (the host's are 8 hex digits). */
#define MAX_TABLE_ID 255u
/* Events taken per epoll_wait. */
#define MAX_EVENTS 256
/* Longest wait in epoll_wait, ms: the loop looks at the clock at least this often. */
#define POLL_MS 100

/* ------------------------------------------------------------------------- */
/* msgpack reading: every function takes the body (buf, len) and a position, checks  */
/* every length against what is left, and returns 0 (read, position moved), 1 (not   */
/* that type, position unchanged) or -1 (malformed).                                  */
/* ------------------------------------------------------------------------- */

static uint64_t be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++)
        v = v << 8 | p[k];
    return v;
}

/* Skip one object. Iterative: ``todo`` counts the objects still to skip (an array of n
 * adds n, a map 2n), so nesting costs no stack; every object takes at least one byte,
 * so more objects owed than bytes left is malformed at once (and todo never overflows). */
static int mp_skip(const uint8_t *buf, size_t len, size_t *pos)
{
    size_t i = *pos;
    uint64_t todo = 1;
    while (todo) {
        if (i > len || todo > len - i)
            return -1;
        uint8_t b = buf[i++];
        todo--;
        uint64_t skip; /* bytes after the type byte (and its length field) */
        unsigned lenbytes = 0; /* size of a length field that follows */
        unsigned extra = 0; /* an ext's type byte */
        if (b <= 0x7f || b >= 0xe0)
            continue; /* fixint */
        if (b >= 0xa0 && b <= 0xbf) {
            skip = b & 0x1f; /* fixstr */
        } else if (b >= 0x90 && b <= 0x9f) {
            todo += b & 0x0f; /* fixarray */
            continue;
        } else if (b >= 0x80 && b <= 0x8f) {
            todo += 2u * (b & 0x0f); /* fixmap */
            continue;
        } else {
            switch (b) {
            case 0xc0: case 0xc2: case 0xc3: continue; /* nil, false, true */
            case 0xcc: case 0xd0: skip = 1; break; /* uint8, int8 */
            case 0xcd: case 0xd1: skip = 2; break;
            case 0xce: case 0xd2: case 0xca: skip = 4; break; /* ..., float32 */
            case 0xcf: case 0xd3: case 0xcb: skip = 8; break; /* ..., float64 */
            case 0xd4: skip = 2; break; /* fixext 1: type + 1 */
            case 0xd5: skip = 3; break;
            case 0xd6: skip = 5; break;
            case 0xd7: skip = 9; break;
            case 0xd8: skip = 17; break;
            case 0xc4: case 0xd9: lenbytes = 1; break; /* bin8, str8 */
            case 0xc5: case 0xda: lenbytes = 2; break;
            case 0xc6: case 0xdb: lenbytes = 4; break;
            case 0xc7: lenbytes = 1; extra = 1; break; /* ext8: len, type, data */
            case 0xc8: lenbytes = 2; extra = 1; break;
            case 0xc9: lenbytes = 4; extra = 1; break;
            case 0xdc: case 0xdd: case 0xde: case 0xdf: { /* array16/32, map16/32 */
                unsigned n = (b == 0xdc || b == 0xde) ? 2 : 4;
                if (n > len - i)
                    return -1;
                uint64_t count = be(buf + i, n);
                i += n;
                todo += (b >= 0xde) ? 2 * count : count;
                continue;
            }
            default: return -1; /* 0xc1: never used */
            }
            if (lenbytes) {
                if (lenbytes > len - i)
                    return -1;
                skip = be(buf + i, lenbytes) + extra;
                i += lenbytes;
            }
        }
        if (skip > len - i)
            return -1;
        i += (size_t)skip;
    }
    *pos = i;
    return 0;
}

static int mp_str(const uint8_t *buf, size_t len, size_t *pos, const uint8_t **s, size_t *n)
{
    size_t i = *pos;
    if (i >= len)
        return -1;
    uint8_t b = buf[i++];
    uint64_t k;
    if (b >= 0xa0 && b <= 0xbf) {
        k = b & 0x1f;
    } else if (b == 0xd9 || b == 0xda || b == 0xdb) {
        unsigned lb = b == 0xd9 ? 1 : b == 0xda ? 2 : 4;
        if (lb > len - i)
            return -1;
        k = be(buf + i, lb);
        i += lb;
    } else {
        return 1;
    }
    if (k > len - i)
        return -1;
    *s = buf + i;
    *n = (size_t)k;
    *pos = i + (size_t)k;
    return 0;
}

/* An int that fits int64 (a larger uint64 counts as not an int). */
static int mp_int(const uint8_t *buf, size_t len, size_t *pos, int64_t *v)
{
    size_t i = *pos;
    if (i >= len)
        return -1;
    uint8_t b = buf[i++];
    if (b <= 0x7f) {
        *v = b;
    } else if (b >= 0xe0) {
        *v = (int8_t)b;
    } else if (b >= 0xcc && b <= 0xd3) {
        unsigned n = 1u << ((b - 0xcc) & 3);
        if (n > len - i)
            return -1;
        uint64_t u = be(buf + i, n);
        i += n;
        if (b <= 0xcf) { /* uint */
            if (u > INT64_MAX)
                return 1;
            *v = (int64_t)u;
        } else if (n == 1) {
            *v = (int8_t)u;
        } else if (n == 2) {
            *v = (int16_t)u;
        } else if (n == 4) {
            *v = (int32_t)u;
        } else {
            *v = (int64_t)u;
        }
    } else {
        return 1;
    }
    *pos = i;
    return 0;
}

/* An array's or a map's header (fix form FIX..FIX+15, then the 16- and 32-bit forms
 * B16, B16 + 1): its count in *n; 1 if the value is something else, -1 if cut short. */
static int mp_header(const uint8_t *buf, size_t len, size_t *pos, uint64_t *n, uint8_t fix,
                     uint8_t b16)
{
    size_t i = *pos;
    if (i >= len)
        return -1;
    uint8_t b = buf[i++];
    if (b >= fix && b <= fix + 0x0f) {
        *n = b & 0x0f;
    } else if (b == b16 || b == b16 + 1) {
        unsigned lb = b == b16 ? 2 : 4;
        if (lb > len - i)
            return -1;
        *n = be(buf + i, lb);
        i += lb;
    } else {
        return 1;
    }
    *pos = i;
    return 0;
}

static int mp_array(const uint8_t *buf, size_t len, size_t *pos, uint64_t *n)
{
    return mp_header(buf, len, pos, n, 0x90, 0xdc);
}

static int mp_map(const uint8_t *buf, size_t len, size_t *pos, uint64_t *n)
{
    return mp_header(buf, len, pos, n, 0x80, 0xde);
}

/* The fields a bot reads from a message; the rest is skipped (but checked). */
typedef struct {
    const uint8_t *t, *table, *status;
    size_t t_len, table_len, status_len;
    int has_seq, has_seat;
    int64_t seq, seat;
    size_t legal_at; /* offset of legal's first element */
    uint64_t legal_n; /* 0: absent, nil, empty or not an array */
} msg_t;

static int key_is(const uint8_t *k, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    return n == m && memcmp(k, lit, m) == 0;
}

/* Read a message body: exactly one msgpack map (anything else: -1). A known key with a
 * value of another type counts as absent. */
static int parse_msg(const uint8_t *buf, size_t len, msg_t *m)
{
    memset(m, 0, sizeof *m);
    size_t pos = 0;
    uint64_t pairs;
    if (mp_map(buf, len, &pos, &pairs) != 0)
        return -1;
    if (pairs > len) /* each pair takes at least 2 bytes */
        return -1;
    for (uint64_t p = 0; p < pairs; p++) {
        const uint8_t *k;
        size_t kn;
        int r = mp_str(buf, len, &pos, &k, &kn);
        if (r < 0)
            return -1;
        if (r == 1) { /* not a str key: skip it and its value */
            if (mp_skip(buf, len, &pos) || mp_skip(buf, len, &pos))
                return -1;
            continue;
        }
        size_t at = pos;
        r = 1;
        if (key_is(k, kn, "t")) {
            r = mp_str(buf, len, &pos, &m->t, &m->t_len);
        } else if (key_is(k, kn, "table")) {
            r = mp_str(buf, len, &pos, &m->table, &m->table_len);
        } else if (key_is(k, kn, "status")) {
            r = mp_str(buf, len, &pos, &m->status, &m->status_len);
        } else if (key_is(k, kn, "seq")) {
            r = mp_int(buf, len, &pos, &m->seq);
            m->has_seq = r == 0;
        } else if (key_is(k, kn, "seat")) {
            r = mp_int(buf, len, &pos, &m->seat);
            m->has_seat = r == 0;
        } else if (key_is(k, kn, "legal")) {
            uint64_t n;
            r = mp_array(buf, len, &pos, &n);
            if (r == 0) {
                m->legal_at = pos;
                m->legal_n = n;
                if (n > len - pos)
                    return -1;
                for (uint64_t e = 0; e < n; e++)
                    if (mp_skip(buf, len, &pos))
                        return -1;
            }
        }
        if (r < 0)
            return -1;
        if (r == 1) {
            pos = at;
            if (mp_skip(buf, len, &pos))
                return -1;
        }
    }
    return pos == len ? 0 : -1; /* no trailing bytes */
}

/* ------------------------------------------------------------------------- */
/* writing the few messages a bot sends                                          */
/* ------------------------------------------------------------------------- */

typedef struct {
    uint8_t *p;
    size_t len, cap;
} buf_t;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "netbot: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return q;
}

static void put(buf_t *b, const void *src, size_t n)
{
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n)
            cap *= 2;
        b->p = xrealloc(b->p, cap);
        b->cap = cap;
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void put_byte(buf_t *b, uint8_t v) { put(b, &v, 1); }

static void put_be(buf_t *b, uint64_t v, unsigned n)
{
    uint8_t t[8];
    for (unsigned k = 0; k < n; k++)
        t[k] = (uint8_t)(v >> (8 * (n - 1 - k)));
    put(b, t, n);
}

static void put_str(buf_t *b, const void *s, size_t n)
{
    if (n < 32) {
        put_byte(b, (uint8_t)(0xa0 | n));
    } else if (n < 256) {
        put_byte(b, 0xd9);
        put_be(b, n, 1);
    } else {
        put_byte(b, 0xda);
        put_be(b, n, 2); /* table ids are at most MAX_TABLE_ID bytes */
    }
    put(b, s, n);
}

static void put_lit(buf_t *b, const char *s) { put_str(b, s, strlen(s)); }

static void put_uint(buf_t *b, uint64_t v)
{
    if (v < 128) {
        put_byte(b, (uint8_t)v);
    } else if (v < 256) {
        put_byte(b, 0xcc);
        put_be(b, v, 1);
    } else if (v < 65536) {
        put_byte(b, 0xcd);
        put_be(b, v, 2);
    } else if (v <= UINT32_MAX) {
        put_byte(b, 0xce);
        put_be(b, v, 4);
    } else {
        put_byte(b, 0xcf);
        put_be(b, v, 8);
    }
}

/* ------------------------------------------------------------------------- */
/* the bots                                                                       */
/* ------------------------------------------------------------------------- */

typedef struct {
    int fd;
    int alive;
    int seat; /* the seat it plays at the slot's tables (SEAT, or the line's @SEAT) */
    char **tables; /* the slot's tables, played in turn */
    size_t ntables, next;
    const char *table; /* the current one ("" before the first join) */
    size_t table_len;
    int has_pending;
    int64_t pending; /* the seq that answers our act */
    double sent_at;
    buf_t in, out;
    int want_out; /* EPOLLOUT registered */
} bot_t;

static int seat, epfd;
static uint64_t next_id = 1, rng_state;
static double measure_from, stop_at;
static double *latencies;
static size_t nlat, latcap;
static uint64_t answered;
static int ran_dry;
static long closed;
static buf_t scratch;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* splitmix64; a uniform index below n by rejection. */
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rng_below(uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = rng_next();
    while (x >= limit);
    return x % n;
}

/* The slot stops: the host closed it, or it sent what the bot cannot read. */
static void drop(bot_t *b, const char *why)
{
    if (!b->alive)
        return;
    if (why)
        fprintf(stderr, "netbot: seat %d table %.*s: %s\n", b->seat, (int)b->table_len, b->table,
                why);
    closed++;
    ran_dry = 1;
    b->alive = 0;
    epoll_ctl(epfd, EPOLL_CTL_DEL, b->fd, NULL);
    close(b->fd);
}

static void watch(bot_t *b, int out)
{
    struct epoll_event ev = {.events = EPOLLIN | (out ? EPOLLOUT : 0), .data.ptr = b};
    epoll_ctl(epfd, EPOLL_CTL_MOD, b->fd, &ev);
    b->want_out = out;
}

static int flush(bot_t *b)
{
    size_t done = 0;
    while (done < b->out.len) {
        ssize_t w = send(b->fd, b->out.p + done, b->out.len - done, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            drop(b, NULL); /* the host went away */
            return 0;
        }
        done += (size_t)w;
    }
    memmove(b->out.p, b->out.p + done, b->out.len - done);
    b->out.len -= done;
    if ((b->out.len > 0) != b->want_out)
        watch(b, b->out.len > 0);
    return 1;
}

/* Frame ``scratch`` (its first 4 bytes are room for the length) and send it. */
static int send_scratch(bot_t *b)
{
    uint32_t n = (uint32_t)(scratch.len - 4);
    scratch.p[0] = n >> 24;
    scratch.p[1] = n >> 16;
    scratch.p[2] = n >> 8;
    scratch.p[3] = n;
    put(&b->out, scratch.p, scratch.len);
    if (b->want_out) /* EPOLLOUT will flush it */
        return 1;
    return flush(b);
}

static void start_frame(void)
{
    scratch.len = 0;
    put(&scratch, "\0\0\0\0", 4);
}

/* Join the slot's next table; 0 if there is none (the slot ran dry). */
static int join_next(bot_t *b)
{
    if (b->next >= b->ntables)
        return 0;
    b->table = b->tables[b->next++];
    b->table_len = strlen(b->table);
    start_frame();
    put_byte(&scratch, 0x84);
    put_lit(&scratch, "t");
    put_lit(&scratch, "join");
    put_lit(&scratch, "id");
    put_uint(&scratch, next_id++);
    put_lit(&scratch, "table");
    put_str(&scratch, b->table, b->table_len);
    put_lit(&scratch, "seat");
    put_uint(&scratch, (uint64_t)b->seat);
    return send_scratch(b);
}

static int is(const uint8_t *s, size_t n, const char *lit) { return key_is(s, n, lit); }

/* One message; 0 if the slot stops (ran dry, dropped). */
static int on_message(bot_t *b, const uint8_t *body, size_t n)
{
    msg_t m;
    if (parse_msg(body, n, &m))
        return drop(b, "malformed frame (not one msgpack map)"), 0;
    if (!m.t)
        return drop(b, "malformed frame (no str \"t\")"), 0;
    if (is(m.t, m.t_len, "welcome"))
        join_next(b); /* as the Python bot: a slot always has a table */
    if (!b->alive)
        return 0;
    if (!is(m.t, m.t_len, "update"))
        return 1;
    if (!m.table)
        return drop(b, "malformed update (no str \"table\")"), 0;
    if (m.table_len != b->table_len || memcmp(m.table, b->table, m.table_len) != 0)
        return 1;
    if (!m.has_seq || !m.status)
        return drop(b, "malformed update (no int \"seq\" or no str \"status\")"), 0;
    if (b->has_pending && m.seq >= b->pending) {
        answered++;
        double t = now();
        if (measure_from <= t && t < stop_at) {
            if (nlat == latcap) {
                latcap = latcap ? 2 * latcap : 4096;
                latencies = xrealloc(latencies, latcap * sizeof *latencies);
            }
            latencies[nlat++] = t - b->sent_at;
        }
        b->has_pending = 0;
    }
    if (is(m.status, m.status_len, "finished")) {
        if (!join_next(b)) {
            if (b->alive) { /* ran dry: stop reading, as the Python bot does */
                ran_dry = 1;
                b->alive = 0;
                epoll_ctl(epfd, EPOLL_CTL_DEL, b->fd, NULL);
            }
            return 0;
        }
        return b->alive;
    }
    if (m.legal_n && !b->has_pending && m.has_seat && m.seat == b->seat) {
        size_t pos = m.legal_at;
        for (uint64_t k = rng_below(m.legal_n); k > 0; k--)
            mp_skip(body, n, &pos); /* checked whole by parse_msg */
        size_t from = pos;
        mp_skip(body, n, &pos);
        b->has_pending = 1;
        b->pending = m.seq + 1;
        b->sent_at = now();
        start_frame();
        put_byte(&scratch, 0x85);
        put_lit(&scratch, "t");
        put_lit(&scratch, "act");
        put_lit(&scratch, "id");
        put_uint(&scratch, next_id++);
        put_lit(&scratch, "table");
        put_str(&scratch, b->table, b->table_len);
        put_lit(&scratch, "action");
        put(&scratch, body + from, pos - from);
        put_lit(&scratch, "seat");
        put_uint(&scratch, (uint64_t)b->seat);
        return send_scratch(b);
    }
    return 1;
}

static void on_readable(bot_t *b)
{
    buf_t *in = &b->in;
    if (in->cap - in->len < READ_CHUNK) {
        in->cap = in->len + READ_CHUNK;
        in->p = xrealloc(in->p, in->cap);
    }
    ssize_t r = recv(b->fd, in->p + in->len, in->cap - in->len, 0);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (r <= 0) {
        drop(b, NULL); /* closed by the host (or reset) */
        return;
    }
    in->len += (size_t)r;
    size_t pos = 0;
    while (in->len - pos >= 4) {
        uint64_t n = be(in->p + pos, 4);
        if (n > MAX_FRAME) {
            drop(b, "malformed frame (length over 1 MiB)");
            return;
        }
        if (in->len - pos - 4 < n) {
            if (in->cap < n + 4) { /* room for the whole frame at the front */
                memmove(in->p, in->p + pos, in->len - pos);
                in->len -= pos;
                pos = 0;
                in->cap = (size_t)n + 4 + READ_CHUNK;
                in->p = xrealloc(in->p, in->cap);
            }
            break;
        }
        if (!on_message(b, in->p + pos + 4, (size_t)n))
            return;
        pos += 4 + (size_t)n;
    }
    memmove(in->p, in->p + pos, in->len - pos);
    in->len -= pos;
}

/* This process's CPU seconds, user + system and system alone, from one getrusage. */
static void cpu_seconds(double *total, double *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
    *total = *sys + ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
}

/* Read all of stdin (at most MAX_STDIN bytes) into slots of table ids. */
static bot_t *read_slots(size_t *nbots)
{
    buf_t all = {0};
    char chunk[65536];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
        if (all.len + r > MAX_STDIN) {
            fprintf(stderr, "netbot: slots over %u bytes\n", MAX_STDIN);
            exit(2);
        }
        put(&all, chunk, r);
    }
    put_byte(&all, 0);
    bot_t *bots = NULL;
    size_t n = 0;
    char *save_line, *line = strtok_r((char *)all.p, "\n", &save_line);
    for (; line; line = strtok_r(NULL, "\n", &save_line)) {
        char **tables = NULL;
        size_t nt = 0;
        int line_seat = seat;
        char *save_tok, *tok = strtok_r(line, " \t\r", &save_tok);
        if (tok && tok[0] == '@') { /* "@SEAT": this slot's seat, for one process of many */
            char *end;
            long v = strtol(tok + 1, &end, 10);
            if (end == tok + 1 || *end || v < 0 || v > 1000) {
                fprintf(stderr, "netbot: bad slot seat %s (0..1000)\n", tok);
                exit(2);
            }
            line_seat = (int)v;
            tok = strtok_r(NULL, " \t\r", &save_tok);
        }
        for (; tok; tok = strtok_r(NULL, " \t\r", &save_tok)) {
            if (strlen(tok) > MAX_TABLE_ID) {
                fprintf(stderr, "netbot: table id over %u bytes\n", MAX_TABLE_ID);
                exit(2);
            }
            tables = xrealloc(tables, (nt + 1) * sizeof *tables);
            tables[nt++] = tok; /* ``all`` lives until exit */
        }
        if (!nt)
            continue;
        bots = xrealloc(bots, (n + 1) * sizeof *bots);
        memset(&bots[n], 0, sizeof *bots);
        bots[n].tables = tables;
        bots[n].seat = line_seat;
        bots[n].ntables = nt;
        bots[n].table = "";
        n++;
    }
    *nbots = n;
    return bots;
}

/* --check: one line per frame on stdin, "ok" if its body is exactly one msgpack object. */
static int check_frames(void)
{
    uint8_t head[4];
    while (fread(head, 1, 4, stdin) == 4) {
        uint64_t n = be(head, 4);
        if (n > MAX_STDIN) {
            puts("bad");
            return 0;
        }
        uint8_t *body = malloc(n ? n : 1);
        if (!body || fread(body, 1, n, stdin) != n) {
            puts("bad");
            free(body);
            return 0;
        }
        size_t pos = 0;
        msg_t m;
        int whole = mp_skip(body, n, &pos) == 0 && pos == n;
        int as_msg = parse_msg(body, n, &m) == 0; /* must never crash either */
        printf("%s%s\n", whole ? "ok" : "bad", as_msg ? " map" : "");
        free(body);
    }
    return 0;
}

static double number(const char *s, const char *what)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v)) {
        fprintf(stderr, "netbot: %s must be a number, got %s\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--check") == 0)
        return check_frames();
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: netbot PORT SEAT MEASURE_FROM STOP_AT SEED [NAP_US] < slots\n"
                        "       netbot --check < frames\n");
        return 2;
    }
    double port = number(argv[1], "PORT");
    double seat_d = number(argv[2], "SEAT");
    if (port < 1 || port > 65535 || port != (double)(long)port || seat_d < 0 || seat_d > 1000
        || seat_d != (double)(long)seat_d) {
        fprintf(stderr, "netbot: PORT must be 1..65535 and SEAT 0..1000\n");
        return 2;
    }
    seat = (int)seat_d;
    measure_from = number(argv[3], "MEASURE_FROM");
    stop_at = number(argv[4], "STOP_AT");
    rng_state = strtoull(argv[5], NULL, 10) * 0x9e3779b97f4a7c15ull + 1;
    double nap_us = argc == 7 ? number(argv[6], "NAP_US") : 0;
    if (nap_us < 0 || nap_us > 1e6) {
        fprintf(stderr, "netbot: NAP_US must be 0..1000000\n");
        return 2;
    }
    struct timespec nap = {(time_t)(nap_us / 1e6), (long)(nap_us * 1e3) % 1000000000L};
    signal(SIGPIPE, SIG_IGN);

    size_t nbots;
    bot_t *bots = read_slots(&nbots);
    epfd = epoll_create1(0);
    if (epfd < 0) {
        perror("netbot: epoll_create1");
        return 2;
    }
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    char name[32];
    for (size_t k = 0; k < nbots; k++) {
        bot_t *b = &bots[k];
        snprintf(name, sizeof name, "bench%d", b->seat);
        b->fd = socket(AF_INET, SOCK_STREAM, 0);
        if (b->fd < 0 || connect(b->fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
            fprintf(stderr, "netbot: connect to 127.0.0.1:%d: %s\n", (int)port, strerror(errno));
            return 2;
        }
        int one = 1;
        setsockopt(b->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        fcntl(b->fd, F_SETFL, fcntl(b->fd, F_GETFL) | O_NONBLOCK);
        b->alive = 1;
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = b};
        epoll_ctl(epfd, EPOLL_CTL_ADD, b->fd, &ev);
        start_frame();
        put_byte(&scratch, 0x83);
        put_lit(&scratch, "t");
        put_lit(&scratch, "hello");
        put_lit(&scratch, "proto");
        put_uint(&scratch, 1);
        put_lit(&scratch, "name");
        put_lit(&scratch, name);
        send_scratch(b);
    }

    int started = 0;
    double cpu_start = 0, sys_start = 0, t;
    struct epoll_event events[MAX_EVENTS];
    while ((t = now()) < stop_at) {
        if (!started && t >= measure_from) {
            cpu_seconds(&cpu_start, &sys_start);
            started = 1;
        }
        double until = (!started && measure_from < stop_at) ? measure_from : stop_at;
        double wait_ms = (until - t) * 1e3 + 1; /* rounded up */
        int ms = wait_ms > POLL_MS ? POLL_MS : wait_ms < 0 ? 0 : (int)wait_ms;
        int n = epoll_wait(epfd, events, MAX_EVENTS, ms);
        for (int k = 0; k < n; k++) {
            bot_t *b = events[k].data.ptr;
            if (b->alive && (events[k].events & EPOLLOUT))
                flush(b);
            if (b->alive && (events[k].events & (EPOLLIN | EPOLLERR | EPOLLHUP)))
                on_readable(b);
        }
        if (n > 0 && nap_us > 0 && now() + nap_us * 1e-6 < stop_at)
            nanosleep(&nap, NULL);
    }
    double cpu, sys;
    cpu_seconds(&cpu, &sys);
    cpu -= cpu_start;
    sys -= sys_start;
    for (size_t k = 0; k < nbots; k++)
        if (bots[k].fd > 0 && bots[k].alive)
            close(bots[k].fd);

    printf("{\"latencies\": [");
    for (size_t k = 0; k < nlat; k++)
        printf(k ? ", %.9g" : "%.9g", latencies[k]);
    printf("], \"actions\": %zu, \"answered\": %llu, \"cpu\": %.6f, \"system\": %.6f, "
           "\"ran_dry\": %s, \"closed\": %ld}\n",
           nlat, (unsigned long long)answered, cpu, sys, ran_dry ? "true" : "false", closed);
    return 0;
}
