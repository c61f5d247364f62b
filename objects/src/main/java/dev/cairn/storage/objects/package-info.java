/**
 * The object store: a content-addressed store of files in one folder, with loose objects, packs
 * indexed by SQLite, and a sandbox for writes in progress.
 * {@link dev.cairn.storage.objects.Container} is the entry (open, init, put, get, pack, clean,
 * repack, sweep, validate), with its configuration, its reports and a sealed family of exceptions; the
 * classes that do the work (loose objects, pack writing and reading, the index and its in-memory
 * copy, maintenance) are package-private.
 *
 * <p>It stands alone, a module of its own: the JDK, sqlite-jdbc and zstd-jni, nothing of Cairn (an
 * architecture test holds it so). The graph keeps node files in it, and a tool can depend on it
 * alone to maintain a container offline.
 */
package dev.cairn.storage.objects;
