package dev.cairn.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import dev.cairn.errors.CairnException;

/** The engine's package rules (STYLE.md): who may use the broker client, and no framework. */
class ArchitectureTest {

    static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.engine");

    @Test
    void onlyTheBrokerPackageUsesTheRabbitMqClient() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.cairn.engine.broker..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("com.rabbitmq..")
                .check(ENGINE);
    }

    @Test
    void theProcessApiDoesNotSeeTheMachinery() {
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.engine.process..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.cairn.engine.runtime..",
                        "dev.cairn.engine.broker..",
                        "dev.cairn.engine.worker..",
                        "dev.cairn.engine.launch..",
                        "dev.cairn.engine.control..")
                .check(ENGINE);
    }

    @Test
    void theRuntimeKnowsNoBroker() {
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.engine.runtime..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.cairn.engine.broker..", "dev.cairn.engine.worker..")
                .check(ENGINE);
    }

    @Test
    void transportsAndSchedulersStandApart() {
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.engine.transport..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.cairn.engine.process..",
                        "dev.cairn.engine.runtime..",
                        "dev.cairn.engine.broker..",
                        "dev.cairn.engine.worker..",
                        "dev.cairn.engine.launch..",
                        "dev.cairn.engine.control..",
                        "dev.cairn.engine.caching..",
                        "dev.cairn.engine.scheduler..")
                .allowEmptyShould(true)
                .check(ENGINE);
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.engine.scheduler..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.cairn.engine.process..",
                        "dev.cairn.engine.runtime..",
                        "dev.cairn.engine.broker..",
                        "dev.cairn.engine.worker..",
                        "dev.cairn.engine.launch..",
                        "dev.cairn.engine.control..",
                        "dev.cairn.engine.caching..")
                .allowEmptyShould(true)
                .check(ENGINE);
    }

    @Test
    void cachingDoesNotReachIntoTheRuntime() {
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.engine.caching..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.cairn.engine.runtime..",
                        "dev.cairn.engine.broker..",
                        "dev.cairn.engine.worker..",
                        "dev.cairn.engine.launch..")
                .check(ENGINE);
    }

    @Test
    void noSpringAndNoCycles() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.springframework..")
                .check(ENGINE);
        slices().matching("dev.cairn.engine.(*)..").should().beFreeOfCycles().check(ENGINE);
    }

    /**
     * Every public exception of the engine belongs to one of the four families (ARCHITECTURE.md §9),
     * so the server can map it to a status with one exhaustive switch.
     */
    @Test
    void everyPublicErrorHasAFamily() {
        classes()
                .that()
                .areAssignableTo(Throwable.class)
                .and()
                .arePublic()
                .should()
                .beAssignableTo(CairnException.class)
                .because("the server maps Cairn's errors to HTTP statuses by family")
                .check(ENGINE);
    }
}
