package dev.cairn.storage.db;

import dev.cairn.storage.errors.ConflictException;

/**
 * The database's schema was migrated by a newer build than this one: this build refuses to open it rather
 * than read and write tables whose meaning it does not know. The remedy is the newer build (or a restore of
 * a backup taken before the migration).
 */
public final class SchemaTooNewException extends ConflictException {

    SchemaTooNewException(String schemaVersion, String newestKnown) {
        super("the database schema is at version " + schemaVersion + ", newer than this build's newest (" + newestKnown
                + "): a newer version of Cairn migrated it; run that version (or a newer one)");
    }
}
