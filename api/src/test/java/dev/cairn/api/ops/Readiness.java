package dev.cairn.api.ops;

import java.time.Duration;

import dev.cairn.api.testing.Api;

/** Polls a server's readiness probe, as an orchestrator would: without a token. */
final class Readiness {

    private Readiness() {}

    /** Waits until the probe answers {@code status} (200 ready, 503 not); returns that answer. */
    static Api.Response await(Api anonymous, int status, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Api.Response r;
        while ((r = anonymous.get("/actuator/health/readiness")).status() != status) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("readiness answered " + r + ", not " + status + ", for " + timeout);
            }
            Thread.sleep(100);
        }
        return r;
    }
}
