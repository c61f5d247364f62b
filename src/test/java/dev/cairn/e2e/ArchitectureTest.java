package dev.cairn.e2e;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import dev.cairn.e2e.hosts.ManyHostsTest;
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

    /** Unmarked, one would run beside another on the same subnet, and the two would take each other's hosts. */
    @Test
    void everyManyHostsTestHoldsTheHostsLock() {
        classes()
                .that()
                .resideInAPackage("dev.cairn.e2e.hosts..")
                .and()
                .haveSimpleNameEndingWith("IT")
                .should()
                .beAnnotatedWith(ManyHostsTest.class)
                .check(E2E);
    }
}
