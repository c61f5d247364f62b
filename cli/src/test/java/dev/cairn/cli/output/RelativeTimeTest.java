package dev.cairn.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class RelativeTimeTest {

    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

    @Test
    void saysTheLargestWholeUnit() {
        assertEquals("now", RelativeTime.ago(NOW, NOW));
        assertEquals("12 s ago", RelativeTime.ago("2026-11-24T11:59:48Z", NOW));
        assertEquals("3 min ago", RelativeTime.ago("2026-11-24T13:56:30+02:00", NOW));
        assertEquals("5 h ago", RelativeTime.ago("2026-11-24T07:00:00Z", NOW));
        assertEquals("2 d ago", RelativeTime.ago("2026-11-22T11:00:00Z", NOW));
        assertEquals("in 1 min", RelativeTime.ago("2026-11-24T12:01:30Z", NOW));
    }

    @Test
    void leavesWhatIsNoTimeAsItIs() {
        assertEquals("", RelativeTime.ago((String) null, NOW));
        assertEquals("yesterday", RelativeTime.ago("yesterday", NOW));
    }
}
