package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Semaphore;

/**
 * The pack lock of a container in a folder: an OS file lock on
 * {@code packs.lock} (released by the kernel when its process dies, so a crash leaves no stale lock),
 * plus an in-process lock because a JVM cannot take the same file lock twice.
 */
final class LockFile implements PackLock {

    static final String FILE = "packs.lock";

    private final Path file;
    private final Semaphore local = new Semaphore(1); // not tied to a thread: a session may close elsewhere

    LockFile(Path containerRoot) {
        this.file = containerRoot.resolve(FILE);
    }

    @Override
    public Held acquire(String operation) throws IOException {
        if (!local.tryAcquire()) {
            throw new ContainerLockedException("cannot " + operation + ": another thread of this process is packing "
                    + "the container at " + file.getParent() + "; one packer at a time");
        }
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = ch.tryLock();
            if (lock == null) {
                String holder = Files.readString(file, StandardCharsets.UTF_8).strip();
                throw new ContainerLockedException("cannot " + operation + ": another process"
                        + (holder.isEmpty() ? "" : " (" + holder + ")") + " is packing the container at "
                        + file.getParent() + "; one packer at a time, try again when it is done");
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(PackLock.holder(operation).getBytes(StandardCharsets.UTF_8)), 0);
            return new FileHeld(ch, lock);
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                ch.close();
            }
            local.release();
            if (e instanceof OverlappingFileLockException) {
                throw new ContainerLockedException("cannot " + operation + ": the pack lock is held in this process");
            }
            throw e;
        }
    }

    private final class FileHeld implements Held {
        private final FileChannel ch;
        private final FileLock lock;

        private FileHeld(FileChannel ch, FileLock lock) {
            this.ch = ch;
            this.lock = lock;
        }

        @Override
        public void close() throws IOException {
            try {
                ch.truncate(0);
                lock.release();
                ch.close();
            } finally {
                local.release();
            }
        }
    }
}
