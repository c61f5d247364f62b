package dev.cairn.storage.objects;

import java.nio.file.Path;

/** The container was written in a format (or with settings) this version cannot read. */
public final class UnsupportedContainerException extends ObjectStoreException {

    public UnsupportedContainerException(Path folder, String why) {
        super("cannot open the container at " + folder + ": " + why);
    }
}
