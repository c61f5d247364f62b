package dev.cairn.storage;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import dev.cairn.storage.errors.CairnException;
import dev.cairn.storage.testing.StorageBoundary;

/**
 * The package rules of docs/architecture.md that the compiler cannot see. The object store's own rule is in its
 * module (objects, dev.cairn.storage.objects.ArchitectureTest).
 */
@AnalyzeClasses(packages = "dev.cairn.storage", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    /** The canonical form and its digest depend on no other part of Cairn, so they never shift with them. */
    @ArchTest
    static final ArchRule hashStandAlone = noClasses()
            .that()
            .resideInAPackage("dev.cairn.storage.hash..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.cairn.storage.graph..",
                    "dev.cairn.storage.db..",
                    "dev.cairn.storage.query..",
                    "dev.cairn.storage.objects..");

    /** The database layer knows tables and JSON, not the graph's rules or its queries. */
    @ArchTest
    static final ArchRule dbBelowGraph = noClasses()
            .that()
            .resideInAPackage("dev.cairn.storage.db..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.cairn.storage.graph..", "dev.cairn.storage.query..", "dev.cairn.storage.hash..");

    /** The graph does not know the query builder; the query builder builds on the graph. */
    @ArchTest
    static final ArchRule graphBelowQuery = noClasses()
            .that()
            .resideInAPackage("dev.cairn.storage.graph..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.cairn.storage.query..");

    /** The node model and its store stand below the stores and traversals built on them. */
    @ArchTest
    static final ArchRule graphCoreBelowItsParts = noClasses()
            .that()
            .resideInAPackage("dev.cairn.storage.graph")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.cairn.storage.graph.traversal..",
                    "dev.cairn.storage.graph.computers..",
                    "dev.cairn.storage.graph.users..",
                    "dev.cairn.storage.graph.groups..",
                    "dev.cairn.storage.graph.comments..");

    @ArchTest
    static final ArchRule graphPartsFreeOfCycles =
            slices().matching("dev.cairn.storage.graph.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule noFrameworks = noClasses()
            .that()
            .resideInAPackage("dev.cairn.storage..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("org.springframework..");

    @ArchTest
    static final ArchRule noCycles =
            slices().matching("dev.cairn.storage.(*)..").should().beFreeOfCycles();

    /**
     * Every public exception of storage belongs to one of the four families (docs/architecture.md, "One family of errors"),
     * so the server can map it to a status with one exhaustive switch. The object store keeps its
     * own sealed exceptions: it depends on nothing of Cairn (the graph hands them on as families,
     * ObjectStoreErrors). It is a module of its own (objects), but its package lies under
     * dev.cairn.storage and the import above takes packages from the whole class path, so its
     * classes are imported here too and stay excluded by name.
     */
    @ArchTest
    static final ArchRule everyPublicErrorHasAFamily = classes()
            .that()
            .areAssignableTo(Throwable.class)
            .and()
            .arePublic()
            .and()
            .resideOutsideOfPackage("dev.cairn.storage.objects..")
            .should()
            .beAssignableTo(CairnException.class)
            .because("the server maps Cairn's errors to HTTP statuses by family");

    /** The families are the errors' own: they depend on nothing else of Cairn. */
    @ArchTest
    static final ArchRule errorsStandAlone = classes()
            .that()
            .resideInAPackage("dev.cairn.storage.errors..")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage("dev.cairn.storage.errors..", "java..");

    /**
     * What the public packages offer other modules shows none of storage's internals (see
     * {@link StorageBoundary#PUBLIC_API_SHOWS_NO_INTERNALS}); that no other module uses them is the same
     * class's other rule, which engine's and api's architecture tests check.
     */
    @ArchTest
    static final ArchRule publicApiShowsNoInternals = StorageBoundary.PUBLIC_API_SHOWS_NO_INTERNALS;
}
