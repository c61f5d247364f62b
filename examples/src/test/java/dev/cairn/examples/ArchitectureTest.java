package dev.cairn.examples;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import dev.cairn.storage.visibility.Internal;

/**
 * The examples are a plugin, as anyone would write one: they use the public API of engine and
 * storage, never an internal package nor a class or member marked {@link Internal}.
 */
class ArchitectureTest {

    static final JavaClasses PLUGIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.examples");

    @Test
    void aPluginUsesNoInternalPackage() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("..internal..")
                .because("internal packages are the engine's and storage's own, not an API")
                .check(PLUGIN);
    }

    @Test
    void aPluginUsesNoClassMarkedInternal() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .areAnnotatedWith(Internal.class)
                .because("classes marked @Internal are public for Cairn's own packages only")
                .check(PLUGIN);
    }

    @Test
    void aPluginUsesNoInternalMember() {
        noClasses()
                .should()
                .accessTargetWhere(markedInternal())
                .because("members marked @Internal are public for Cairn's own packages only")
                .check(PLUGIN);
    }

    private static DescribedPredicate<JavaAccess<?>> markedInternal() {
        return DescribedPredicate.describe("a member marked @Internal", access -> {
            AccessTarget target = access.getTarget();
            return target.resolveMember()
                    .map(member -> member.isAnnotatedWith(Internal.class))
                    .orElse(false);
        });
    }
}
