package dev.cairn.storage.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;

class DatabaseConfigTest {

    @Test
    void loopbackUrlsWithoutTheirOwnSslSettingGoWithoutTls() {
        assertTrue(DatabaseConfig.of("jdbc:postgresql://127.0.0.1:5432/cairn?user=c")
                .plainLoopback());
        assertTrue(DatabaseConfig.of("jdbc:postgresql://localhost/cairn").plainLoopback());
        assertTrue(DatabaseConfig.of("jdbc:postgresql://[::1]:5432/cairn").plainLoopback());
        assertTrue(DatabaseConfig.of("jdbc:postgresql:cairn").plainLoopback());
        assertFalse(DatabaseConfig.of("jdbc:postgresql://db.cluster.example:5432/cairn")
                .plainLoopback());
        assertFalse(DatabaseConfig.of("jdbc:postgresql://127.0.0.1/cairn?sslmode=require")
                .plainLoopback());
        assertFalse(
                DatabaseConfig.of("jdbc:postgresql://localhost/cairn?ssl=true").plainLoopback());
    }

    @Test
    void aUrlThatIsNotPostgresIsRefused() {
        assertThrows(InvalidInputException.class, () -> DatabaseConfig.of("jdbc:mysql://localhost/x"));
    }

    @Test
    void theWaitForAConnectionIsHikarisUnlessSetAndNeverBelowItsLeast() {
        DatabaseConfig config = DatabaseConfig.of("jdbc:postgresql://localhost/cairn");
        assertEquals(Duration.ofSeconds(30), config.connectTimeout());
        DatabaseConfig shorter = config.withPoolSize(16).withConnectTimeout(Duration.ofSeconds(5));
        assertEquals(Duration.ofSeconds(5), shorter.connectTimeout());
        assertEquals(16, shorter.poolSize());
        assertEquals(Duration.ofSeconds(5), shorter.withPoolSize(4).connectTimeout(), "kept when the pool changes");
        InvalidInputException e =
                assertThrows(InvalidInputException.class, () -> config.withConnectTimeout(Duration.ofMillis(100)));
        assertEquals("connectTimeout must be at least 250 ms (the pool's least), was PT0.1S", e.getMessage());
    }

    @Test
    void aSilentPeerIsBorneThirtySecondsUnlessSetAndNeverUnderThreeButZero() {
        DatabaseConfig config = DatabaseConfig.of("jdbc:postgresql://db/cairn");
        assertEquals(Duration.ofSeconds(30), config.deadConnectionTimeout());
        assertEquals(
                Duration.ZERO, config.withDeadConnectionTimeout(Duration.ZERO).deadConnectionTimeout(), "off");
        DatabaseConfig ten = config.withDeadConnectionTimeout(Duration.ofSeconds(10));
        assertEquals(
                Duration.ofSeconds(10),
                ten.withPoolSize(3).withConnectTimeout(Duration.ofSeconds(1)).deadConnectionTimeout(),
                "kept when the rest changes");
        InvalidInputException e = assertThrows(
                InvalidInputException.class, () -> config.withDeadConnectionTimeout(Duration.ofSeconds(2)));
        assertEquals(
                "deadConnectionTimeout must be zero (off) or at least 3 s (a keepalive and three probes of a second"
                        + " each), was PT2S",
                e.getMessage());
    }

    @Test
    void thePlannerPricesAPageReadOutOfOrderForStorageInMemoryUnlessToldOtherwise() {
        DatabaseConfig config = DatabaseConfig.of("jdbc:postgresql://db/cairn");
        assertEquals(1.1, config.randomPageCost());
        assertEquals(null, config.withRandomPageCost(null).randomPageCost(), "the server's");
        assertEquals(
                4.0, config.withRandomPageCost(4.0).withPoolSize(3).randomPageCost(), "kept when the rest changes");
        for (double wrong : new double[] {0, -1, Double.NaN, 1000}) {
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> config.withRandomPageCost(wrong));
            assertEquals(
                    "randomPageCost must be above 0 and below 1000 (PostgreSQL's own default is 4, a page read in"
                            + " order costs 1), was " + wrong,
                    e.getMessage());
        }
    }
}
