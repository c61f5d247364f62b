package dev.cairn.e2e;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import dev.cairn.storage.testing.StorageBoundary;

/**
 * The end-to-end tests read the graph and launch processes as any client of storage and the engine
 * would: through storage's public API, never its internals (docs/architecture.md, "Inside the modules").
 */
class ArchitectureTest {

    /** Every class of these tests, the many-hosts tests' included: they are all test code. */
    static final JavaClasses E2E = new ClassFileImporter().importPackages("dev.cairn.e2e");

    @Test
    void theEndToEndTestsUseNoInternalOfStorage() {
        StorageBoundary.INTERNALS_STAY_IN_STORAGE.check(E2E);
    }
}
