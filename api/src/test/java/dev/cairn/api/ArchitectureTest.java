package dev.cairn.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import dev.cairn.internal.Internal;

/**
 * The server stands on the public API of engine and storage, as any client of the core would: no
 * internal package, no member marked {@link Internal}.
 */
class ArchitectureTest {

    static final JavaClasses SERVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.api");

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
}
