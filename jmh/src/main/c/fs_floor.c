/*
 * The file system's own cost for what the object store's loose objects need, with no store around
 * it: what loose_write and clean_storage cannot go below on this machine.
 *
 *   fs_floor write N   N objects of 500 B: create in a sandbox, write, fdatasync, close, rename into
 *                      one of 256 shard folders, fsync that folder (kept open); prints µs per object
 *                      and per step
 *   fs_floor unlink N T  N synced 500 B files in 256 folders, then unlinks them by path on T threads;
 *                      prints µs per file
 *
 * Run it in an empty folder on the file system to measure (jmh/fs-floor.sh does).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void fail(const char *what) {
    perror(what);
    exit(1);
}

static void make_shards(void) {
    char p[32];
    if (mkdir("loose", 0755) != 0) fail("mkdir loose");
    for (int s = 0; s < 256; s++) {
        snprintf(p, sizeof p, "loose/%02x", s);
        if (mkdir(p, 0755) != 0) fail("mkdir shard");
    }
}

static int write_floor(int n) {
    char buf[500], tmp[64], dst[64];
    memset(buf, 7, sizeof buf);
    if (mkdir("sandbox", 0755) != 0) fail("mkdir sandbox");
    make_shards();
    int shard[256];
    for (int s = 0; s < 256; s++) {
        snprintf(tmp, sizeof tmp, "loose/%02x", s);
        if ((shard[s] = open(tmp, O_RDONLY | O_DIRECTORY)) < 0) fail("open shard");
    }
    double create = 0, sync = 0, move = 0, dirsync = 0, t0, t1, start = now();
    for (int i = 0; i < n; i++) {
        int s = (i * 37) % 256;
        snprintf(tmp, sizeof tmp, "sandbox/%d", i);
        snprintf(dst, sizeof dst, "loose/%02x/%d", s, i);
        t0 = now();
        int fd = open(tmp, O_CREAT | O_EXCL | O_WRONLY, 0644);
        if (fd < 0) fail("create");
        t1 = now(); create += t1 - t0;
        if (write(fd, buf, sizeof buf) != sizeof buf) fail("write");
        t0 = now();
        if (fdatasync(fd) != 0) fail("fdatasync");
        t1 = now(); sync += t1 - t0;
        close(fd);
        if (rename(tmp, dst) != 0) fail("rename");
        t0 = now(); move += t0 - t1;
        if (fsync(shard[s]) != 0) fail("fsync shard");
        t1 = now(); dirsync += t1 - t0;
    }
    double total = now() - start;
    printf("write %d objects: %.0f us per object (create %.0f, fdatasync %.0f, close and rename %.0f, "
           "shard fsync %.0f)\n", n, total / n * 1e6, create / n * 1e6, sync / n * 1e6, move / n * 1e6,
           dirsync / n * 1e6);
    return 0;
}

static int files, threads;

static void *unlink_some(void *arg) {
    char p[64];
    for (int i = (int) (long) arg; i < files; i += threads) {
        snprintf(p, sizeof p, "loose/%02x/%d", i % 256, i);
        if (unlink(p) != 0) fail("unlink");
    }
    return NULL;
}

static int unlink_floor(int n, int t) {
    char buf[500], p[64];
    memset(buf, 7, sizeof buf);
    files = n;
    threads = t;
    make_shards();
    for (int i = 0; i < n; i++) {
        snprintf(p, sizeof p, "loose/%02x/%d", i % 256, i);
        int fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0644);
        if (fd < 0 || write(fd, buf, sizeof buf) != sizeof buf) fail("write");
        close(fd);
    }
    sync();
    pthread_t th[256];
    double start = now();
    for (long k = 0; k < t; k++)
        if (pthread_create(&th[k], NULL, unlink_some, (void *) k) != 0) fail("pthread_create");
    for (int k = 0; k < t; k++)
        pthread_join(th[k], NULL);
    double total = now() - start;
    printf("unlink %d synced files on %d threads: %.1f us per file, %.2f s per 100,000\n", n, t,
           total / n * 1e6, total / n * 1e5);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "write") == 0)
        return write_floor(atoi(argv[2]));
    if (argc == 4 && strcmp(argv[1], "unlink") == 0 && atoi(argv[3]) >= 1 && atoi(argv[3]) <= 256)
        return unlink_floor(atoi(argv[2]), atoi(argv[3]));
    fprintf(stderr, "usage: fs_floor write N | fs_floor unlink N THREADS (1-256)\n");
    return 2;
}
