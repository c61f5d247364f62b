package dev.cairn.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.ArrayList;
import java.util.List;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.storage.errors.CairnException;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.testing.StorageBoundary;
import dev.cairn.storage.visibility.Internal;

/**
 * The engine's package rules (docs/architecture.md, "Inside the modules"): who may use the broker client, how the internal
 * packages layer, who writes a process's state, and what the public packages show.
 */
class ArchitectureTest {

    static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.engine");

    private static final String INTERNAL = "dev.cairn.engine.internal..";

    @Test
    void onlyTheBrokerPackageUsesTheRabbitMqClient() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.cairn.engine.internal.broker..")
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
                        INTERNAL,
                        "dev.cairn.engine.worker..",
                        "dev.cairn.engine.launch..",
                        "dev.cairn.engine.control..",
                        "dev.cairn.engine.events..")
                .check(ENGINE);
    }

    /** The internals layer: state at the bottom, then caching and calculation jobs, then the stepping runtime. */
    @Test
    void theInternalsLayer() {
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.engine.internal.state..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.cairn.engine.internal.runtime..",
                        "dev.cairn.engine.internal.calcjob..",
                        "dev.cairn.engine.internal.caching..",
                        "dev.cairn.engine.internal.broker..")
                .check(ENGINE);
        noClasses()
                .that()
                .resideInAnyPackage("dev.cairn.engine.internal.calcjob..", "dev.cairn.engine.internal.caching..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.cairn.engine.internal.runtime..", "dev.cairn.engine.internal.broker..")
                .check(ENGINE);
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.engine.internal.runtime..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.cairn.engine.internal.broker..", "dev.cairn.engine.worker..")
                .check(ENGINE);
    }

    @Test
    void transportsAndSchedulersStandApart() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.cairn.engine.transport..", "dev.cairn.engine.scheduler..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        INTERNAL,
                        "dev.cairn.engine.process..",
                        "dev.cairn.engine.worker..",
                        "dev.cairn.engine.launch..",
                        "dev.cairn.engine.control..",
                        "dev.cairn.engine.caching..",
                        "dev.cairn.engine.events..")
                .check(ENGINE);
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.engine.transport..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.cairn.engine.scheduler..")
                .check(ENGINE);
    }

    /** The engine stands on storage's public API and its members marked {@link Internal}, never on its internals. */
    @Test
    void theEngineUsesNoInternalOfStorage() {
        StorageBoundary.INTERNALS_STAY_IN_STORAGE.check(ENGINE);
    }

    /** One writer of process state: every other class leaves the state, the paused flag and the status alone. */
    @Test
    void onlyTheStateWriterWritesProcessState() {
        noClasses()
                .that()
                .doNotBelongToAnyOf(ProcessStates.class)
                .should()
                .callMethod(ProcessNode.class, "setProcessState", String.class)
                .orShould()
                .callMethod(ProcessNode.class, "setProcessStatus", String.class)
                .orShould()
                .callMethod(ProcessNode.class, "setPaused", boolean.class)
                .orShould()
                .callMethod(GraphTransaction.class, "saveState", ProcessNode.class, boolean.class)
                .check(ENGINE);
    }

    /**
     * What the public packages offer (plugins' and the server's API) shows no internal type,
     * except on members marked {@link Internal}, which only the engine calls.
     */
    @Test
    void thePublicApiShowsNoInternals() {
        codeUnits()
                .that()
                .areDeclaredInClassesThat()
                .resideOutsideOfPackage(INTERNAL)
                .and()
                .areDeclaredInClassesThat()
                .arePublic()
                .and()
                .arePublic()
                .and()
                .areNotAnnotatedWith(Internal.class)
                .should(notShowInternalTypes())
                .check(ENGINE);
    }

    private static ArchCondition<JavaCodeUnit> notShowInternalTypes() {
        return new ArchCondition<>("not take or return a type of an internal package") {
            @Override
            public void check(JavaCodeUnit unit, ConditionEvents events) {
                List<JavaClass> shown = new ArrayList<>(unit.getRawParameterTypes());
                shown.add(unit.getRawReturnType());
                for (JavaClass type : shown) {
                    if (type.getPackageName().startsWith("dev.cairn.engine.internal")) {
                        events.add(SimpleConditionEvent.violated(
                                unit, unit.getFullName() + " shows the internal " + type.getName()));
                    }
                }
            }
        };
    }

    /** No cycles between any two packages of the engine, its root package included. */
    @Test
    void noSpringAndNoCycles() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.springframework..")
                .check(ENGINE);
        slices().assignedFrom(byPackage()).should().beFreeOfCycles().check(ENGINE);
    }

    private static SliceAssignment byPackage() {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                return javaClass.getPackageName().startsWith("dev.cairn.engine")
                        ? SliceIdentifier.of(javaClass.getPackageName())
                        : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "each package of the engine";
            }
        };
    }

    /**
     * Every public exception of the engine belongs to one of the four families (docs/architecture.md, "One family of errors"),
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
