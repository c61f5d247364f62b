package dev.cairn.engine.internal.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** A failure recurring each second is said once a minute, with the count of the unsaid, and its end once. */
class RecurringFailureLogTest {

    private final List<String> said = new ArrayList<>();
    private final AtomicLong now = new AtomicLong();
    private final RecurringFailureLog log =
            new RecurringFailureLog(new Recording(), Level.WARNING, Duration.ofMinutes(1), now::get);

    @Test
    void anOutageOfTwoMinutesAndAHalfIsFourLines() {
        for (int second = 0; second < 150; second++) {
            now.set(Duration.ofSeconds(second).toNanos());
            log.failed("relay failed: connection refused");
        }
        log.succeeded("the relay works again");
        assertEquals(
                List.of(
                        "WARNING relay failed: connection refused",
                        "WARNING relay failed: connection refused (and 59 time(s) more since it was last said)",
                        "WARNING relay failed: connection refused (and 59 time(s) more since it was last said)",
                        "INFO the relay works again after 150 failure(s)"),
                said);
    }

    @Test
    void aFailureAfterARecoveryIsSaidAtOnceAndSuccessesAloneSayNothing() {
        log.succeeded("works");
        log.failed("first");
        log.succeeded("works again");
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        log.failed("second");
        log.succeeded("works again");
        log.succeeded("works again");
        assertEquals(
                List.of(
                        "WARNING first",
                        "INFO works again after 1 failure(s)",
                        "WARNING second",
                        "INFO works again after 1 failure(s)"),
                said);
    }

    /** Keeps what is logged, as "LEVEL message". */
    private final class Recording implements Logger {
        @Override
        public String getName() {
            return "test";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
            said.add(level + " " + message);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            said.add(level + " " + format);
        }
    }
}
