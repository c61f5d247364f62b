package dev.cairn.storage.archive.aiida;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * An archive inflates at most its ratio times its own size (past the floor), and never past the total:
 * a bomb that spreads its bytes over many entries, each within the ratio, is stopped all the same.
 */
class InflationBudgetTest {

    @Test
    void archiveInflatesAtMostItsRatioTimesItsSizePastTheFloor() {
        InflationBudget budget = InflationBudget.of(new AiidaArchiveLimits(10, 1_000_000, 10, 100), 1000);
        budget.spend(5000, "x.aiida, entry 'repo/a'");
        budget.spend(5100, "x.aiida, entry 'repo/b'");
        InvalidArchiveException e =
                assertThrows(InvalidArchiveException.class, () -> budget.spend(1, "x.aiida, entry 'repo/c'"));
        assertEquals(
                "x.aiida, entry 'repo/c' takes the archive past 10100 bytes inflated, 10 times the archive's size:"
                        + " a zip bomb, or an archive too large to read",
                e.getMessage());
    }

    @Test
    void theTotalLimitHoldsWhenItIsTheLower() {
        InflationBudget budget = InflationBudget.of(new AiidaArchiveLimits(10, 5000, 10, 100), 1000);
        budget.spend(5000, "a");
        InvalidArchiveException e = assertThrows(InvalidArchiveException.class, () -> budget.spend(1, "b"));
        assertEquals(
                "b takes the archive past 5000 bytes inflated, the limit for one archive: a zip bomb, or an archive"
                        + " too large to read",
                e.getMessage());
    }

    @Test
    void hugeArchivesDoNotOverflowTheRatio() {
        InflationBudget budget = InflationBudget.of(AiidaArchiveLimits.defaults(), Long.MAX_VALUE / 2);
        budget.spend(1L << 40, "a");
        assertThrows(InvalidArchiveException.class, () -> budget.spend(1, "b"), "the total, 1 TiB, still holds");
    }
}
