package dev.cairn.storage.testing;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.db.internal.Entities;
import dev.cairn.storage.graph.StoredRowHashes;
import dev.cairn.storage.visibility.Internal;

/** The boundary's rules fail on a class that breaks them and pass one that keeps them. */
class StorageBoundaryTest {

    @Test
    void aClassUsingAnInternalPackageBreaksTheRule() {
        AssertionError broken = assertThrows(
                AssertionError.class,
                () -> StorageBoundary.INTERNALS_STAY_IN_STORAGE.check(only(UsesAnInternalPackage.class)));
        assertTrue(broken.getMessage().contains(Entities.class.getName()), broken.getMessage());
    }

    @Test
    void aClassUsingAClassMarkedInternalBreaksTheRule() {
        AssertionError broken = assertThrows(
                AssertionError.class,
                () -> StorageBoundary.INTERNALS_STAY_IN_STORAGE.check(only(UsesAnInternalClass.class)));
        assertTrue(broken.getMessage().contains(StoredRowHashes.class.getName()), broken.getMessage());
    }

    @Test
    void aClassUsingThePublicApiKeepsTheRule() {
        StorageBoundary.INTERNALS_STAY_IN_STORAGE.check(only(UsesThePublicApi.class));
    }

    @Test
    void aPublicMethodReturningAnInternalTypeBreaksTheApiRule() {
        AssertionError broken = assertThrows(
                AssertionError.class,
                () -> StorageBoundary.PUBLIC_API_SHOWS_NO_INTERNALS.check(only(ShowsAnInternal.class)));
        assertTrue(broken.getMessage().contains("shows the internal " + Entities.class.getName()), broken.getMessage());
    }

    @Test
    void aMemberMarkedInternalMayShowOne() {
        StorageBoundary.PUBLIC_API_SHOWS_NO_INTERNALS.check(only(ShowsAnInternalWhereMarked.class));
    }

    private static JavaClasses only(Class<?> type) {
        return new ClassFileImporter().importClasses(type);
    }

    static final class UsesAnInternalPackage {
        List<Class<?>> mapped() {
            return Entities.MAPPED;
        }
    }

    static final class UsesAnInternalClass {
        String hash() {
            return StoredRowHashes.hash("data.core.int.Int", null, Map.of("value", 1), Map.of(), null, Map.of());
        }
    }

    public static final class ShowsAnInternal {
        public Entities entities() {
            return null;
        }
    }

    public static final class ShowsAnInternalWhereMarked {
        @Internal
        public Entities entities() {
            return null;
        }
    }

    static final class UsesThePublicApi {
        DatabaseConfig config() {
            return DatabaseConfig.of("jdbc:postgresql://localhost/cairn");
        }
    }
}
