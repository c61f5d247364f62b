package dev.cairn.storage.objects;

import java.nio.file.Path;

/** The container was written in a format (or with settings) this version cannot read. */
public final class UnsupportedContainerException extends ObjectStoreException {

    public UnsupportedContainerException(Path folder, String why) {
        this(folder.toString(), why);
    }

    /** @param location a folder, or {@code s3://bucket/prefix} */
    public UnsupportedContainerException(String location, String why) {
        super("cannot open the container at " + location + ": " + why);
    }
}
