package dev.cairn.engine.scheduler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** STYLE.md: the scheduler knows the transport and nothing else of the engine, nor storage. */
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
                .resideInAnyPackage("dev.cairn.engine.scheduler..", "dev.cairn.engine.transport..", "java..")
                .check(SCHEDULER);
    }
}
