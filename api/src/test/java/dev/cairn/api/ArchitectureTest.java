package dev.cairn.api;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.util.HashSet;
import java.util.Set;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.springframework.stereotype.Controller;

import dev.cairn.engine.Engine;
import dev.cairn.storage.Storage;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.db.DatabaseProbe;
import dev.cairn.storage.db.Migrations;
import dev.cairn.storage.db.SchemaTooNewException;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.testing.StorageBoundary;
import dev.cairn.storage.visibility.Internal;

/**
 * The server's layers (ARCHITECTURE.md §5): its surfaces call services, and the services call storage
 * and the engine through their public APIs.
 * <ul>
 * <li>It stands on the public API of engine and storage, as any client of the core would: no internal
 *     package, no member marked {@link Internal}.</li>
 * <li>Nothing reaches the database but through storage and the engine: no class imports {@code java.sql}
 *     or {@code dev.cairn.storage.db} or calls {@link Engine#database()}, but those that start the
 *     embedded services ({@code api.embedded}) and watch the database for operators ({@code api.ops}:
 *     health, the connection pool's meters, the schema's version). The wiring ({@code api.config}) builds
 *     the engine and storage from settings: it names the database's settings ({@link DatabaseConfig}), runs
 *     its migrations ({@link Migrations}) and, for the one-shot modes, opens the {@link Database} to hand it
 *     to storage's stores; it imports no {@code java.sql} and runs no SQL of its own.</li>
 * <li>Controllers (the REST API's and the web pages') parse a request, call a service and shape the answer: of storage and the engine they
 *     use what services take and return (records, enums, node classes, exceptions), never a class that
 *     holds the database, the object store or the engine (a store, a query, {@link Storage},
 *     {@link Engine}), however deep in its fields.</li>
 * </ul>
 */
class ArchitectureTest {

    static final JavaClasses SERVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.api");

    /** The whole of Cairn, so that the fields of storage's and the engine's classes can be followed. */
    static final JavaClasses CAIRN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn");

    /** The packages that may reach the database: the embedded services and the operators' view of it. */
    private static final String[] NEAR_THE_DATABASE = {"dev.cairn.api.embedded..", "dev.cairn.api.ops.."};

    private static final String WIRING = "dev.cairn.api.config..";

    @Test
    void theServerUsesNoInternalPackage() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.cairn..internal..")
                .because("internal packages are the engine's and storage's own, not an API")
                .check(SERVER);
    }

    @Test
    void theServerUsesNoInternalOfStorage() {
        StorageBoundary.INTERNALS_STAY_IN_STORAGE.check(SERVER);
    }

    @Test
    void theServerUsesNoInternalMember() {
        noClasses()
                .should()
                .accessTargetWhere(DescribedPredicate.describe(
                        "a member marked @Internal",
                        (JavaAccess<?> access) -> access.getTarget()
                                .resolveMember()
                                .map(member -> member.isAnnotatedWith(Internal.class))
                                .orElse(false)))
                .because("members marked @Internal are public for Cairn's own packages only")
                .check(SERVER);
    }

    @Test
    void onlyTheEmbeddedServicesAndTheOperatorsViewUseJdbcOrTheDatabasePackage() {
        noClasses()
                .that()
                .resideOutsideOfPackages(NEAR_THE_DATABASE)
                .and()
                .resideOutsideOfPackage(WIRING)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "dev.cairn.storage.db..")
                .because("the server reads and writes the graph through storage's and the engine's public APIs")
                .check(SERVER);
    }

    @Test
    void theWiringOpensTheDatabaseButRunsNoSqlOfItsOwn() {
        noClasses()
                .that()
                .resideInAPackage(WIRING)
                .should()
                .dependOnClassesThat(resideInAPackage("java.sql..")
                        .or(resideInAPackage("dev.cairn.storage.db..")
                                .and(not(belongToAnyOf(
                                        DatabaseConfig.class,
                                        Migrations.class,
                                        Database.class,
                                        DatabaseProbe.class,
                                        SchemaTooNewException.class)))))
                .because("the wiring builds the engine and storage from settings; it runs no SQL of its own")
                .check(SERVER);
    }

    @Test
    void onlyTheEmbeddedServicesAndTheOperatorsViewAskTheEngineForItsDatabase() {
        noClasses()
                .that()
                .resideOutsideOfPackages(NEAR_THE_DATABASE)
                .should()
                .callMethod(Engine.class, "database")
                .because("the engine's storage() hands out stores that own their transactions")
                .check(SERVER);
    }

    @Test
    void controllersUseServicesNotStoresNorTheEngine() {
        noClasses()
                .that()
                .areMetaAnnotatedWith(Controller.class)
                .should()
                .dependOnClassesThat(HOLDS_A_RESOURCE)
                .because("a controller parses the request, calls a service and shapes the answer")
                .check(CAIRN);
    }

    /** A class of storage or the engine that holds the database, the object store or the engine. */
    private static final DescribedPredicate<JavaClass> HOLDS_A_RESOURCE = DescribedPredicate.describe(
            "hold the database, the object store or the engine (storage's and the engine's stores and services)",
            c -> resideInAnyPackage("dev.cairn.storage..", "dev.cairn.engine..").test(c)
                    && holdsResource(c, new HashSet<>()));

    private static boolean holdsResource(JavaClass c, Set<String> seen) {
        if (c.isAssignableTo(Database.class)
                || c.isAssignableTo(Container.class)
                || c.isAssignableTo(Engine.class)
                || c.isAssignableTo(Storage.class)
                || c.isAssignableTo("javax.sql.DataSource")) {
            return true;
        }
        if (!seen.add(c.getName()) || !c.getPackageName().startsWith("dev.cairn")) {
            return false;
        }
        for (JavaField f : c.getAllFields()) {
            if (!f.getModifiers().contains(JavaModifier.STATIC) && holdsResource(f.getRawType(), seen)) {
                return true;
            }
        }
        return false;
    }
}
