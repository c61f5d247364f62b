package dev.cairn.api.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class DatabaseSettingsTest {

    private static CairnProperties.Database withRandomPageCost(String cost) {
        return new CairnProperties.Database(null, null, null, 16, Duration.ofSeconds(5), Duration.ofSeconds(30), cost);
    }

    @Test
    void theRandomPageCostIsANumberOrTheServers() {
        assertEquals(1.1, withRandomPageCost("1.1").plannerRandomPageCost());
        assertEquals(4.0, withRandomPageCost(" 4 ").plannerRandomPageCost());
        assertNull(withRandomPageCost("server").plannerRandomPageCost());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> withRandomPageCost("ssd").plannerRandomPageCost());
        assertEquals(
                "cairn.database.random-page-cost must be a number (1.1 for a database in memory or on SSD) or"
                        + " 'server' (the server's own), not 'ssd'",
                e.getMessage());
    }
}
