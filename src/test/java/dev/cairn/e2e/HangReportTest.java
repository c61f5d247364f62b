package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

class HangReportTest {

    @Test
    void aThreadThatWaitsIsPrintedWithWhereItWaits() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch waiting = new CountDownLatch(1);
        Thread stuck = Thread.ofPlatform().name("stuck-on-a-latch").start(() -> {
            waiting.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            waiting.await();
            while (stuck.getState() != Thread.State.WAITING) {
                Thread.onSpinWait();
            }
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            HangReport.print(new PrintStream(printed, true, StandardCharsets.UTF_8));
            String report = printed.toString(StandardCharsets.UTF_8);
            assertTrue(report.contains("\"stuck-on-a-latch\" WAITING\n"), report);
            String after = report.substring(report.indexOf("\"stuck-on-a-latch\""));
            assertTrue(after.contains("java.util.concurrent.CountDownLatch.await("), report);
            assertTrue(after.contains("HangReportTest.lambda$"), report);
        } finally {
            release.countDown();
            stuck.join();
        }
    }
}
