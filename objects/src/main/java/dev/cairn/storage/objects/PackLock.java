package dev.cairn.storage.objects;

import java.io.IOException;
import java.net.InetAddress;

/**
 * One packer at a time per container, across threads, processes and hosts: a {@link LockFile} in a folder,
 * an {@link S3Lock} object in a bucket. A crashed holder never blocks the container for good.
 */
interface PackLock {

    /** Takes the lock or fails at once with {@link ContainerLockedException}, naming who holds it. */
    Held acquire(String operation) throws IOException;

    /** Who holds the lock, as the lock says to those it refuses: "pid 12 on host, pack loose objects". */
    static String holder(String operation) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown host";
        }
        return "pid " + ProcessHandle.current().pid() + " on " + host + ", " + operation;
    }

    /** The held lock; closing releases it. */
    interface Held extends AutoCloseable {
        @Override
        void close() throws IOException;
    }
}
