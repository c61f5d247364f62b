package dev.cairn.storage.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;

import dev.cairn.storage.visibility.Internal;

/**
 * Storage's boundary as a rule the modules built on it check against their own classes (engine's and
 * api's {@code ArchitectureTest}s): its {@code internal} packages, and the classes it marks
 * {@link Internal}, are storage's own. Members marked {@link Internal} are a separate matter: the
 * engine may call them, the server and plugins may not (their own rules say so).
 */
public final class StorageBoundary {

    /** A class of one of storage's {@code internal} packages, or a storage class marked {@link Internal}. */
    public static final DescribedPredicate<JavaClass> STORAGE_INTERNALS = DescribedPredicate.describe(
            "storage's internals (its internal packages and its classes marked @Internal)",
            type -> type.getPackageName().startsWith("dev.cairn.storage")
                    && (("." + type.getPackageName() + ".").contains(".internal.")
                            || type.isAnnotatedWith(Internal.class)));

    /** No class it is checked against depends on storage's internals. */
    public static final ArchRule INTERNALS_STAY_IN_STORAGE = noClasses()
            .should()
            .dependOnClassesThat(STORAGE_INTERNALS)
            .because("storage's internal packages are its own, not an API: other modules use its public types");

    private StorageBoundary() {}
}
