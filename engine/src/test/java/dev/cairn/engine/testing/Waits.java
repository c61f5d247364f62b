package dev.cairn.engine.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polling until something holds, failing with what was awaited. */
public final class Waits {

    private Waits() {}

    public static void until(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(20);
        }
    }
}
