package dev.cairn.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.net.HttpURLConnection;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The command line's rules (docs/architecture.md, "Modules"): it starts in a fraction of a second, so no
 * Spring, no Hibernate, no JDBC stack of the server, and no Cairn module but the object store; and its
 * packages do not depend on each other in a circle; each noun's commands have a package, and no noun's
 * package reaches into another's.
 */
class ArchitectureTest {

    static final JavaClasses CLI = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.cli");

    @Test
    void linksNeitherSpringNorHibernateNorTheServer() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.springframework..",
                        "org.hibernate..",
                        "jakarta.persistence..",
                        "org.flywaydb..",
                        "com.rabbitmq..",
                        "dev.cairn.api..",
                        "dev.cairn.engine..",
                        "dev.cairn.storage.graph..",
                        "dev.cairn.storage.query..")
                .check(CLI);
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching("dev.cairn.cli.(**)").should().beFreeOfCycles().check(CLI);
    }

    /** A package per noun of {@code cairn}; what two nouns share lives in client, options, output or local. */
    @Test
    void nounsDoNotReachIntoEachOther() {
        slices().matching("dev.cairn.cli.commands.(*)..")
                .should()
                .notDependOnEachOther()
                .check(CLI);
    }

    /** The shared packages serve the commands and never call back up into them or into the root command. */
    @Test
    void sharedPackagesDoNotDependOnCommands() {
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.cairn.cli", "dev.cairn.cli.commands..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.cairn.cli", "dev.cairn.cli.commands..")
                .check(CLI);
    }

    /** Every command is in a noun's package: none is left in the flat package they came from. */
    @Test
    void commandsLiveInANounsPackage() {
        noClasses()
                .that()
                .doNotHaveSimpleName("package-info")
                .should()
                .resideInAPackage("dev.cairn.cli.commands")
                .check(CLI);
    }

    @Test
    void onlyTheClientTalksHttp() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.cairn.cli.client..")
                .should()
                .dependOnClassesThat()
                .areAssignableTo(HttpURLConnection.class)
                .check(CLI);
    }

    /** The JDK's HttpClient takes four times as long as the plain connection to make a command's first request. */
    @Test
    void nothingStartsTheJdksHttpClient() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("java.net.http..")
                .check(CLI);
    }
}
