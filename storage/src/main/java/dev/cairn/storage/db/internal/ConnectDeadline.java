package dev.cairn.storage.db.internal;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closes a channel whose blocking connect has not ended by its deadline, which ends the connect
 * ({@link UnixDomainSocket}'s connect timeout). The connect disarms it when it ends first.
 */
final class ConnectDeadline {

    private static final int ARMED = 0;
    private static final int DISARMED = 1;
    private static final int PASSED = 2;

    private final AtomicInteger state = new AtomicInteger(ARMED);

    private ConnectDeadline() {}

    /** Closes {@code channel} in {@code millis} ms unless {@link #disarm disarmed} first. */
    static ConnectDeadline closing(SocketChannel channel, int millis) {
        ConnectDeadline deadline = new ConnectDeadline();
        // on the JDK's one delay thread: closing a channel is quick, and needs no thread of ours
        CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS, Runnable::run)
                .execute(() -> {
                    if (deadline.state.compareAndSet(ARMED, PASSED)) {
                        try {
                            channel.close();
                        } catch (IOException e) {
                            // the connect ends all the same
                        }
                    }
                });
        return deadline;
    }

    /** Whether the connect ended before the deadline, which then does nothing. */
    boolean disarm() {
        return state.compareAndSet(ARMED, DISARMED);
    }

    /** Whether the deadline closed the channel. */
    boolean passed() {
        return state.get() == PASSED;
    }
}
