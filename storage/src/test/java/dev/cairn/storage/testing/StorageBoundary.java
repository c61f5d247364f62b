package dev.cairn.storage.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.util.ArrayList;
import java.util.List;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import dev.cairn.storage.visibility.Internal;

/**
 * Storage's boundary as a rule the modules built on it check against their own classes (engine's and
 * api's {@code ArchitectureTest}s): its {@code internal} packages, and the classes it marks
 * {@link Internal}, are storage's own. Members marked {@link Internal} are a separate matter: the
 * engine may call them, the server and plugins may not (their own rules say so). Storage checks the
 * other side itself ({@link #PUBLIC_API_SHOWS_NO_INTERNALS}): what it offers shows none of them.
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

    /**
     * No public method or constructor of a public class outside the internal packages takes or returns one
     * of storage's internals, except members and classes marked {@link Internal}, which only storage and
     * the engine use.
     */
    public static final ArchRule PUBLIC_API_SHOWS_NO_INTERNALS = codeUnits()
            .that()
            .areDeclaredInClassesThat()
            .resideOutsideOfPackage("dev.cairn.storage..internal..")
            .and()
            .areDeclaredInClassesThat()
            .arePublic()
            .and()
            .areDeclaredInClassesThat()
            .areNotAnnotatedWith(Internal.class)
            .and()
            .arePublic()
            .and()
            .areNotAnnotatedWith(Internal.class)
            .should(notShowInternals());

    private StorageBoundary() {}

    private static ArchCondition<JavaCodeUnit> notShowInternals() {
        return new ArchCondition<>("not take or return one of storage's internals") {
            @Override
            public void check(JavaCodeUnit unit, ConditionEvents events) {
                List<JavaClass> shown = new ArrayList<>(unit.getRawParameterTypes());
                shown.add(unit.getRawReturnType());
                for (JavaClass type : shown) {
                    if (STORAGE_INTERNALS.test(type)) {
                        events.add(SimpleConditionEvent.violated(
                                unit, unit.getFullName() + " shows the internal " + type.getName()));
                    }
                }
            }
        };
    }
}
