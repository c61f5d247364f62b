package dev.cairn.jmh;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import dev.cairn.storage.testing.StorageBoundary;

/**
 * The benchmarks measure storage and the engine as their users call them: through their public APIs,
 * never an internal package of either nor a class storage marks {@code @Internal} (storage's rule,
 * {@link StorageBoundary}, which engine, api and the end-to-end tests check too). A benchmark of one part
 * stands apart from the others.
 */
class ArchitectureTest {

    static final JavaClasses BENCHMARKS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.jmh");

    @Test
    void theBenchmarksUseNoInternalOfStorage() {
        StorageBoundary.INTERNALS_STAY_IN_STORAGE.check(BENCHMARKS);
    }

    @Test
    void theBenchmarksUseNoInternalPackage() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.cairn..internal..")
                .because("internal packages are the engine's and storage's own, not an API")
                .check(BENCHMARKS);
    }

    @Test
    void theBenchmarkPackagesAreFreeOfCycles() {
        slices().matching("dev.cairn.jmh.(*)..").should().beFreeOfCycles().check(BENCHMARKS);
    }
}
