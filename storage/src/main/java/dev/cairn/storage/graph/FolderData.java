package dev.cairn.storage.graph;

import java.io.IOException;
import java.nio.file.Path;

/** A folder of files and sub-folders, kept in the object store. */
public final class FolderData extends Data {

    public static final String TYPE = "data.core.folder.FolderData.";

    /** An empty folder; add files through {@link #files()}. */
    public FolderData() {
        super(TYPE);
    }

    /** A copy of a folder on disk. */
    public static FolderData of(Path folder) throws IOException {
        FolderData data = new FolderData();
        data.files().putTree("", folder);
        return data;
    }

    FolderData(NodeRecord row) {
        super(row);
    }
}
