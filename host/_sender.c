/* lantable.host._sender: the host's socket writes, made by a thread of their own.
 *
 * At the end of each scheduler batch the host writes what every client's link
 * buffered, after the journal's commit (host/link.py, BatchEnd). On loopback a write
 * costs the writer the whole delivery (TCP's receive path and the reader's wake-up):
 * about 7 us each, four per Manila action, a fifth of the host's CPU per action, all
 * spent in the one thread that runs every table. Here a POSIX thread that never takes
 * Python's GIL makes those writes, on another core, while the trio thread goes on
 * with the next requests.
 *
 * What it keeps (docs/decisions.md, "Socket writes on a thread of their own"):
 *   - Order: one FIFO for every descriptor; a link's bytes go out in the order
 *     submitted, and nothing is written before it is submitted, so the journal's
 *     commit still comes first.
 *   - No blocking: every send is MSG_DONTWAIT. A write that would block (a slow
 *     reader) "diverts" its descriptor: what is left of it, and everything submitted
 *     for that descriptor after it, is kept aside in order, unwritten, and the
 *     descriptor is flagged (an eventfd becomes readable). The trio side then
 *     settles the descriptor and hands the bytes to the link's own writer task, which
 *     waits for the socket like before. A failed write (the client reset the
 *     connection) flags the descriptor with its errno; later bytes for it are dropped.
 *   - No write to a closed or reused descriptor: settle(fd) returns only once the
 *     thread holds nothing of fd and is not writing it; the host settles every
 *     descriptor before it closes it (ClientLink.close_direct).
 *
 * The thread blocks every signal (they are the main thread's, where Python handles
 * them). It sends with MSG_DONTWAIT | MSG_NOSIGNAL: a write never blocks, even to a
 * socket left in blocking mode, and one to a closed socket fails with EPIPE.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct item {
    struct item *next;
    int fd;
    size_t len;
    char data[];
} item;

typedef struct {
    size_t inflight;   /* items of this fd queued or being written */
    int diverted;      /* a write would have blocked: keep the rest aside */
    int err;           /* a write failed with this errno: drop the rest */
    int flagged;       /* listed in the flagged array since the last flagged() */
    int waiting;       /* settle() calls waiting for inflight to reach 0 */
    item *rest_head, *rest_tail;
    size_t rest_len;
} fdstate;

typedef struct {
    PyObject_HEAD
    pthread_mutex_t mu;
    pthread_cond_t work;      /* the thread waits here for items */
    pthread_cond_t progress;  /* settle() waits here for an fd's items to be done */
    item *head, *tail;
    int writing;              /* the fd being written now, or -1 */
    int ndiverted;            /* descriptors diverted and not yet settled */
    int sleeping;             /* the thread waits on `work` */
    int stop;
    int running;              /* the thread was started and not yet joined */
    fdstate *fds;
    int cap;
    int *flags;
    int nflags, flagcap;
    int notify;               /* eventfd: readable when a descriptor is flagged */
    pthread_t thread;
} Sender;

/* The state of fd, grown to hold it; NULL if out of memory. Holds mu. */
static fdstate *state_of(Sender *s, int fd) {
    if (fd < s->cap)
        return &s->fds[fd];
    int cap = s->cap ? s->cap : 256;
    while (cap <= fd)
        cap *= 2;
    fdstate *grown = realloc(s->fds, (size_t)cap * sizeof(fdstate));
    if (grown == NULL)
        return NULL;
    memset(grown + s->cap, 0, (size_t)(cap - s->cap) * sizeof(fdstate));
    s->fds = grown;
    s->cap = cap;
    return &s->fds[fd];
}

/* Flag fd for the trio side (once until it asks). Holds mu. */
static void flag(Sender *s, int fd) {
    fdstate *f = &s->fds[fd];
    if (f->flagged)
        return;
    if (s->nflags == s->flagcap) {
        int cap = s->flagcap ? s->flagcap * 2 : 64;
        int *grown = realloc(s->flags, (size_t)cap * sizeof(int));
        if (grown == NULL)
            return; /* not listed: settle() at the descriptor's close still finds it */
        s->flags = grown;
        s->flagcap = cap;
    }
    f->flagged = 1;
    s->flags[s->nflags++] = fd;
    uint64_t one = 1;
    ssize_t n = write(s->notify, &one, sizeof one);
    (void)n; /* a full eventfd counter is still readable */
}

static void keep_aside(fdstate *f, item *it) {
    it->next = NULL;
    if (f->rest_tail)
        f->rest_tail->next = it;
    else
        f->rest_head = it;
    f->rest_tail = it;
    f->rest_len += it->len;
}

static void free_rest(fdstate *f) {
    item *it = f->rest_head;
    while (it) {
        item *next = it->next;
        free(it);
        it = next;
    }
    f->rest_head = f->rest_tail = NULL;
    f->rest_len = 0;
}

static void *run(void *arg) {
    Sender *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (s->head == NULL && !s->stop) {
            s->sleeping = 1;
            pthread_cond_wait(&s->work, &s->mu);
            s->sleeping = 0;
        }
        if (s->head == NULL)
            break; /* stopping, and nothing left */
        item *it = s->head;
        s->head = it->next;
        if (s->head == NULL)
            s->tail = NULL;
        int fd = it->fd;
        fdstate *f = &s->fds[fd];
        if (f->err) {
            free(it);
        } else if (f->diverted) {
            keep_aside(f, it);
        } else {
            s->writing = fd;
            pthread_mutex_unlock(&s->mu);
            const char *p = it->data;
            size_t left = it->len;
            int err = 0;
            while (left > 0) {
                /* never blocks, whatever the socket's mode; never raises SIGPIPE */
                ssize_t n = send(fd, p, left, MSG_DONTWAIT | MSG_NOSIGNAL);
                if (n >= 0) {
                    p += n;
                    left -= (size_t)n;
                } else if (errno != EINTR) {
                    err = errno;
                    break;
                }
            }
            pthread_mutex_lock(&s->mu);
            s->writing = -1;
            f = &s->fds[fd]; /* the array may have grown meanwhile */
            if (left == 0) {
                free(it);
            } else if (err == EAGAIN || err == EWOULDBLOCK) {
                memmove(it->data, p, left);
                it->len = left;
                f->diverted = 1;
                s->ndiverted++;
                keep_aside(f, it);
                flag(s, fd);
            } else {
                f->err = err ? err : EIO;
                free(it);
                flag(s, fd);
            }
        }
        f->inflight--;
        if (f->inflight == 0 && f->waiting)
            pthread_cond_broadcast(&s->progress);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static int start(Sender *s) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old); /* the new thread inherits the mask */
    int rc = pthread_create(&s->thread, NULL, run, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    s->running = 1;
    return 0;
}

static void stop_and_join(Sender *s) {
    if (!s->running)
        return;
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->mu);
    Py_BEGIN_ALLOW_THREADS
    pthread_join(s->thread, NULL);
    Py_END_ALLOW_THREADS
    s->running = 0;
}

static PyObject *Sender_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    if (PyTuple_GET_SIZE(args) != 0 || (kwds && PyDict_GET_SIZE(kwds) != 0)) {
        PyErr_SetString(PyExc_TypeError, "Sender() takes no arguments");
        return NULL;
    }
    Sender *s = (Sender *)type->tp_alloc(type, 0);
    if (s == NULL)
        return NULL;
    s->writing = -1;
    s->notify = -1;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->work, NULL);
    pthread_cond_init(&s->progress, NULL);
    s->notify = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (s->notify < 0 || start(s) < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        Py_DECREF(s);
        return NULL;
    }
    return (PyObject *)s;
}

static void Sender_dealloc(Sender *s) {
    stop_and_join(s);
    item *it = s->head;
    while (it) {
        item *next = it->next;
        free(it);
        it = next;
    }
    for (int fd = 0; fd < s->cap; fd++)
        free_rest(&s->fds[fd]);
    free(s->fds);
    free(s->flags);
    if (s->notify >= 0)
        close(s->notify);
    pthread_cond_destroy(&s->progress);
    pthread_cond_destroy(&s->work);
    pthread_mutex_destroy(&s->mu);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int fd_arg(PyObject *o, int *fd) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "a file descriptor is a non-negative int");
        return -1;
    }
    *fd = (int)v;
    return 0;
}

PyDoc_STRVAR(submit_doc,
"submit(fd, data)\n--\n\n"
"Write ``data`` (bytes-like) to ``fd`` after everything submitted before it, once\n"
"kick() is called; the bytes are copied and the call returns at once.");

static PyObject *Sender_submit(Sender *s, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "submit(fd, data)");
        return NULL;
    }
    int fd;
    if (fd_arg(args[0], &fd) < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[1], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    item *it = malloc(sizeof(item) + (size_t)view.len);
    if (it == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    it->next = NULL;
    it->fd = fd;
    it->len = (size_t)view.len;
    memcpy(it->data, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    pthread_mutex_lock(&s->mu);
    fdstate *f = s->stop ? NULL : state_of(s, fd);
    if (f == NULL) {
        int stopped = s->stop;
        pthread_mutex_unlock(&s->mu);
        free(it);
        if (stopped) {
            PyErr_SetString(PyExc_RuntimeError, "the sender is closed");
            return NULL;
        }
        return PyErr_NoMemory();
    }
    f->inflight++;
    if (s->tail)
        s->tail->next = it;
    else
        s->head = it;
    s->tail = it;
    pthread_mutex_unlock(&s->mu);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(kick_doc,
"kick()\n--\n\n"
"Start writing what was submitted (once per batch: waking the thread is a system call).");

static PyObject *Sender_kick(Sender *s, PyObject *unused) {
    pthread_mutex_lock(&s->mu);
    if (s->sleeping && s->head != NULL)
        pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->mu);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(settle_doc,
"settle(fd) -> (rest, errno)\n--\n\n"
"Wait until the thread holds nothing of ``fd`` and is not writing it (microseconds:\n"
"its writes never block), then forget ``fd``: ``rest`` is what was kept aside unwritten\n"
"since a write would have blocked (b'' if none), in order; ``errno`` is that of a failed\n"
"write (its later bytes were dropped), else 0. Call it before ``fd`` closes.");

static PyObject *Sender_settle(Sender *s, PyObject *arg) {
    int fd;
    if (fd_arg(arg, &fd) < 0)
        return NULL;
    item *rest = NULL;
    size_t rest_len = 0;
    int err = 0;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&s->mu);
    if (fd < s->cap) {
        if (s->sleeping && s->head != NULL)
            pthread_cond_signal(&s->work);
        s->fds[fd].waiting++;
        while (s->fds[fd].inflight > 0 || s->writing == fd)
            pthread_cond_wait(&s->progress, &s->mu);
        fdstate *f = &s->fds[fd];
        f->waiting--;
        rest = f->rest_head;
        rest_len = f->rest_len;
        err = f->err;
        f->rest_head = f->rest_tail = NULL;
        f->rest_len = 0;
        if (f->diverted)
            s->ndiverted--;
        f->diverted = 0;
        f->err = 0;
        /* a stale entry in the flagged array settles to (b'', 0) */
        f->flagged = 0;
    }
    pthread_mutex_unlock(&s->mu);
    Py_END_ALLOW_THREADS
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, err ? 0 : (Py_ssize_t)rest_len);
    char *out = bytes ? PyBytes_AS_STRING(bytes) : NULL;
    while (rest) {
        item *next = rest->next;
        if (out && !err) {
            memcpy(out, rest->data, rest->len);
            out += rest->len;
        }
        free(rest);
        rest = next;
    }
    if (bytes == NULL)
        return NULL;
    return Py_BuildValue("(Ni)", bytes, err);
}

PyDoc_STRVAR(flagged_doc,
"flagged() -> list[int]\n--\n\n"
"The descriptors flagged since the last call (a write would have blocked, or failed);\n"
"settle each. Resets ``notify_fd``.");

static PyObject *Sender_flagged(Sender *s, PyObject *unused) {
    uint64_t count;
    ssize_t n = read(s->notify, &count, sizeof count);
    (void)n;
    pthread_mutex_lock(&s->mu);
    PyObject *out = PyList_New(s->nflags);
    if (out != NULL) {
        for (int i = 0; i < s->nflags; i++) {
            PyObject *v = PyLong_FromLong(s->flags[i]);
            if (v == NULL) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, i, v);
        }
    }
    if (out != NULL) {
        for (int i = 0; i < s->nflags; i++)
            if (s->flags[i] < s->cap)
                s->fds[s->flags[i]].flagged = 0;
        s->nflags = 0;
    }
    pthread_mutex_unlock(&s->mu);
    return out;
}

PyDoc_STRVAR(idle_doc,
"idle() -> bool\n--\n\n"
"True if the thread holds nothing: nothing queued or being written, and no descriptor\n"
"diverted and not yet settled. The caller may then write to any descriptor itself\n"
"without passing bytes the thread holds.");

static PyObject *Sender_idle(Sender *s, PyObject *unused) {
    pthread_mutex_lock(&s->mu);
    int idle = s->head == NULL && s->writing < 0 && s->ndiverted == 0;
    pthread_mutex_unlock(&s->mu);
    return PyBool_FromLong(idle);
}

PyDoc_STRVAR(close_doc,
"close()\n--\n\nWrite what was submitted, then stop the thread (idempotent).");

static PyObject *Sender_close(Sender *s, PyObject *unused) {
    stop_and_join(s);
    Py_RETURN_NONE;
}

static PyObject *Sender_notify_fd(Sender *s, void *closure) {
    return PyLong_FromLong(s->notify);
}

static PyMethodDef Sender_methods[] = {
    {"submit", (PyCFunction)(void (*)(void))Sender_submit, METH_FASTCALL, submit_doc},
    {"settle", (PyCFunction)Sender_settle, METH_O, settle_doc},
    {"flagged", (PyCFunction)Sender_flagged, METH_NOARGS, flagged_doc},
    {"kick", (PyCFunction)Sender_kick, METH_NOARGS, kick_doc},
    {"idle", (PyCFunction)Sender_idle, METH_NOARGS, idle_doc},
    {"close", (PyCFunction)Sender_close, METH_NOARGS, close_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Sender_getset[] = {
    {"notify_fd", (getter)Sender_notify_fd, NULL,
     "an eventfd, readable when a descriptor was flagged", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SenderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lantable.host._sender.Sender",
    .tp_doc = PyDoc_STR("Socket writes made in order by a thread that never takes the GIL."),
    .tp_basicsize = sizeof(Sender),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Sender_new,
    .tp_dealloc = (destructor)Sender_dealloc,
    .tp_methods = Sender_methods,
    .tp_getset = Sender_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "lantable.host._sender",
    .m_doc = PyDoc_STR("The host's socket writes, made by a thread of their own."),
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__sender(void) {
    if (PyType_Ready(&SenderType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&SenderType);
    if (PyModule_AddObject(m, "Sender", (PyObject *)&SenderType) < 0) {
        Py_DECREF(&SenderType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
