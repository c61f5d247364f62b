package dev.cairn.engine.scheduler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** docs/architecture.md: the scheduler knows the transport and the shared error families, nothing else of Cairn. */
class SchedulerDependenciesTest {

    static final JavaClasses SCHEDULER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.engine.scheduler");

    @Test
    void theSchedulerUsesTheTransportAndNothingElseOfCairn() {
        classes()
                .that()
                .resideInAPackage("dev.cairn.engine.scheduler..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "dev.cairn.engine.scheduler..",
                        "dev.cairn.engine.transport..",
                        "dev.cairn.storage.errors..",
                        "java..")
                .check(SCHEDULER);
    }
}
