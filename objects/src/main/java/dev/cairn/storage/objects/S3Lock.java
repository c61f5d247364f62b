package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The pack lock of a container in a bucket: an object, {@code lock}, created only if absent, that names
 * its holder, and which the holder writes again every {@link #HEARTBEAT} while it works. A holder that
 * died leaves it; once it is older than {@link #STALE} the next packer takes it over.
 *
 * <p>The lock saves wasted work, not data: every commit is a conditional create of the next entry of the
 * {@link IndexLog}, and every pack a conditional create of its name, so a holder whose lock was taken over
 * while it was paused fails its commit and rolls back rather than overwrite anything.
 */
final class S3Lock implements PackLock {

    static final String NAME = "lock";
    static final Duration HEARTBEAT = Duration.ofSeconds(20);
    static final Duration STALE = Duration.ofMinutes(2);

    private final S3Bucket bucket;
    private final String key;
    private final Semaphore local = new Semaphore(1);

    S3Lock(S3Bucket bucket, String prefix) {
        this.bucket = bucket;
        this.key = prefix + NAME;
    }

    @Override
    public Held acquire(String operation) throws IOException {
        if (!local.tryAcquire()) {
            throw new ContainerLockedException("cannot " + operation + ": another thread of this process is packing "
                    + "the container at " + bucket.describe(key) + "; one packer at a time");
        }
        try {
            String writer = UUID.randomUUID().toString();
            byte[] holder = PackLock.holder(operation).getBytes(StandardCharsets.UTF_8);
            if (!bucket.createIfAbsent(key, holder, writer)) {
                S3Bucket.Head h = bucket.head(key);
                if (h != null && h.lastModified().isAfter(Instant.now().minus(STALE))) {
                    byte[] by = bucket.get(key);
                    throw new ContainerLockedException("cannot " + operation + ": another process"
                            + (by == null ? "" : " (" + new String(by, StandardCharsets.UTF_8) + ")")
                            + " is packing the container at " + bucket.describe(key)
                            + "; one packer at a time, try again when it is done");
                }
                // its holder stopped writing it: it died (or is lost to the network); take it over
                bucket.delete(key);
                if (!bucket.createIfAbsent(key, holder, writer)) {
                    throw new ContainerLockedException("cannot " + operation + ": another process took over the "
                            + "stale pack lock of " + bucket.describe(key) + " first; try again");
                }
            }
            return new BucketHeld(writer, holder);
        } catch (IOException | RuntimeException e) {
            local.release();
            throw e;
        }
    }

    private final class BucketHeld implements Held {
        private final String writer;
        private final CountDownLatch released = new CountDownLatch(1);
        private final Thread heartbeat;

        BucketHeld(String writer, byte[] holder) {
            this.writer = writer;
            this.heartbeat = Thread.ofPlatform()
                    .name("cairn-lock-heartbeat")
                    .daemon()
                    .start(() -> {
                        try {
                            while (!released.await(HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS)) {
                                bucket.put(key, holder, writer);
                            }
                        } catch (InterruptedException | IOException e) {
                            // a lock not kept fresh goes stale: the commit's conditional create still guards the index
                        }
                    });
        }

        @Override
        public void close() throws IOException {
            released.countDown();
            try {
                heartbeat.join();
                S3Bucket.Head h = bucket.head(key);
                if (h != null && writer.equals(h.writer())) {
                    bucket.delete(key);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                local.release();
            }
        }
    }
}
