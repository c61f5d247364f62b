package dev.cairn.storage.objects;

import java.nio.file.Path;

/** The folder given is not an object store container (or is one only in part). */
public final class NotAContainerException extends ObjectStoreException {

    public NotAContainerException(Path folder, String why) {
        this(folder.toString(), why);
    }

    /** @param location a folder, or {@code s3://bucket/prefix} */
    public NotAContainerException(String location, String why) {
        super(location + " is not an object store container: " + why);
    }
}
